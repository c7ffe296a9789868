import type { UpstreamChatCodec } from '../../ir/chat-codec.types';
import { fromGeminiError } from './gemini-error.transform';
import { geminiCall, toGeminiRequest } from './gemini-request.transform';
import { fromGeminiResponse, GeminiStreamDecoder } from './gemini-response.transform';

export const geminiChat: UpstreamChatCodec = {
  nativeFamily: 'genc',
  toRequest: toGeminiRequest,
  passThrough: geminiCall,
  fromResponse: fromGeminiResponse,
  streamDecoder: (context) => new GeminiStreamDecoder(context),
  fromError: fromGeminiError,
};
