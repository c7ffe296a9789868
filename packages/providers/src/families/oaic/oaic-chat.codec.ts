import type { FamilyChatCodec } from '../../ir/chat-codec.types';
import { toOaicResponse } from './oaic-response.encoder';
import { OaicStreamEncoder } from './oaic-stream.encoder';

export const oaicChat: FamilyChatCodec = {
  toResponse: (response) => toOaicResponse(response),
  streamEncoder: (id, model) => new OaicStreamEncoder(id, model),
};
