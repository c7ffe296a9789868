import type { UpstreamChatCodec } from '../../ir/chat-codec.types';
import { fromAnthropicError } from './anthropic-error.transform';
import { toAnthropicRequest } from './anthropic-request.transform';
import { AnthropicStreamDecoder, fromAnthropicResponse } from './anthropic-response.transform';

export const anthropicChat: UpstreamChatCodec = {
  nativeFamily: 'msgc',
  toRequest: toAnthropicRequest,
  fromResponse: fromAnthropicResponse,
  streamDecoder: (context) => new AnthropicStreamDecoder(context),
  fromError: fromAnthropicError,
};
