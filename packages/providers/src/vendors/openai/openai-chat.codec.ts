import type { UpstreamChatCodec } from '../../ir/chat-codec.types';
import { toOpenaiRequest } from './openai-chat-request.transform';
import { fromOpenaiResponse, OpenaiStreamDecoder } from './openai-chat-response.transform';
import { fromUpstreamError } from './openai-error.map';

export const openaiChat: UpstreamChatCodec = {
  nativeFamily: 'oaic',
  toRequest: toOpenaiRequest,
  fromResponse: fromOpenaiResponse,
  streamDecoder: (context) => new OpenaiStreamDecoder(context),
  fromError: fromUpstreamError,
};
