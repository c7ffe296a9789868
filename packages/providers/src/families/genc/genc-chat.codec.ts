import type { FamilyChatCodec } from '../../ir/chat-codec.types';
import { toGencResponse } from './genc-response.encoder';
import { GencStreamEncoder } from './genc-stream.encoder';

export const gencChat: FamilyChatCodec = {
  toResponse: toGencResponse,
  streamEncoder: (id, model) => new GencStreamEncoder(id, model),
};
