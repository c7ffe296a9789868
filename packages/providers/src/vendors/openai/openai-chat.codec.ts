import type { UpstreamChatCodec } from '../../ir/chat-codec.types';
import { toOpenaiRequest } from './openai-chat-request.transform';
import { fromOpenaiResponse, OpenaiStreamDecoder } from './openai-chat-response.transform';
import { toUpstream } from './openai.adapter';
import { fromUpstreamError } from './openai-error.map';

export const openaiChat: UpstreamChatCodec = {
  nativeFamily: 'oaic',
  toRequest: toOpenaiRequest,
  passThrough: (body, channel, stream) => toUpstream('chat', body, channel, { stream }),
  fromResponse: fromOpenaiResponse,
  streamDecoder: (context) => new OpenaiStreamDecoder(context),
  fromError: fromUpstreamError,
};
