import type { UpstreamChatCodec } from '../../ir/chat-codec.types';
import { openaiChat } from '../openai/openai-chat.codec';
import { toOpenaiRequest } from '../openai/openai-chat-request.transform';
import { fromAzureError } from './azure-openai-error.map';
import { asAzureRequest, toAzureUpstream } from './azure-openai.request';

/** Azure OpenAI speaks the OpenAI protocol: its answers, streams and finish reasons decode as OpenAI's. */
export const azureOpenaiChat: UpstreamChatCodec = {
  ...openaiChat,
  toRequest: (ir, channel) => asAzureRequest(toOpenaiRequest(ir, channel), 'chat', channel),
  passThrough: (body, channel, stream) => toAzureUpstream('chat', body, channel, { stream }),
  fromError: fromAzureError,
};
