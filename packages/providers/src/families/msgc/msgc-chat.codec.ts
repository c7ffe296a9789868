import type { FamilyChatCodec } from '../../ir/chat-codec.types';
import { toMsgcResponse } from './msgc-response.encoder';
import { MsgcStreamEncoder } from './msgc-stream.encoder';

export const msgcChat: FamilyChatCodec = {
  toResponse: toMsgcResponse,
  streamEncoder: (id, model) => new MsgcStreamEncoder(id, model),
};
