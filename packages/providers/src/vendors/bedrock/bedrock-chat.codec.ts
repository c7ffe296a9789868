import { MessagesRequest, parseOrThrow } from '@gateway/contracts';
import type { UpstreamChatCodec } from '../../ir/chat-codec.types';
import { fromMsgcRequest } from '../../families/msgc/msgc-request.decoder';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { fromBedrockError } from './bedrock-error.transform';
import { bedrockStructuredOutputTool, toBedrockRequest } from './bedrock-request.transform';
import { BedrockStreamDecoder, fromConverseResponse } from './bedrock-response.transform';

/**
 * Converse is no client family's wire format, so nothing passes through: a Messages body (Claude's
 * closest kin, hence msgc as the native family) is decoded into the IR and translated like any other.
 */
function translateMessages(body: Record<string, unknown>, channel: ChannelTarget, stream: boolean): UpstreamRequest {
  const ir = fromMsgcRequest(parseOrThrow(MessagesRequest, body));
  return toBedrockRequest({ ...ir, stream }, channel);
}

export const bedrockChat: UpstreamChatCodec = {
  nativeFamily: 'msgc',
  toRequest: toBedrockRequest,
  passThrough: translateMessages,
  fromResponse: fromConverseResponse,
  streamDecoder: (context) => new BedrockStreamDecoder(context),
  fromError: fromBedrockError,
  structuredOutputTool: bedrockStructuredOutputTool,
};
