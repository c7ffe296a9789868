import type { UpstreamChatCodec } from '../../ir/chat-codec.types';
import { fromAnthropicError } from './anthropic-error.transform';
import { anthropicCall, anthropicStructuredOutputTool, toAnthropicRequest } from './anthropic-request.transform';
import { AnthropicStreamDecoder, fromAnthropicResponse } from './anthropic-response.transform';

export const anthropicChat: UpstreamChatCodec = {
  nativeFamily: 'msgc',
  toRequest: toAnthropicRequest,
  passThrough: anthropicCall,
  fromResponse: fromAnthropicResponse,
  streamDecoder: (context) => new AnthropicStreamDecoder(context),
  fromError: fromAnthropicError,
  structuredOutputTool: anthropicStructuredOutputTool,
};
