import type { UpstreamChatCodec } from '../../ir/chat-codec.types';
import { fromBedrockError } from './bedrock-error.transform';
import { readBedrockEventStream } from './bedrock-event-stream.reader';
import { bedrockStructuredOutputTool, toBedrockRequest } from './bedrock-request.transform';
import { BedrockStreamDecoder, fromConverseResponse } from './bedrock-response.transform';

export const bedrockChat: UpstreamChatCodec = {
  // Converse is no client family's wire format: every family is translated, and its refusals name fields as Messages does.
  nativeFamily: 'msgc',
  toRequest: toBedrockRequest,
  readEvents: readBedrockEventStream,
  fromResponse: fromConverseResponse,
  streamDecoder: (context) => new BedrockStreamDecoder(context),
  fromError: fromBedrockError,
  structuredOutputTool: bedrockStructuredOutputTool,
};
