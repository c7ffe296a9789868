import type { ChatCompletionRequest, CatalogChannel, TenantCaller } from '@gateway/contracts';
import { fromOaicRequest } from '@gateway/providers';
import type { MeteredStream } from '../usage/metered-stream';
import { createChatCall, needsTranslation, type ChatCall } from './chat-call';

interface PreparedOaicChat {
  caller: TenantCaller;
  body: ChatCompletionRequest;
  modelId: string;
  channels: CatalogChannel[];
  metered: MeteredStream;
}

/** An oaic chat request whose model has a channel that does not speak the OpenAI protocol: it goes through the IR. */
export function oaicChatNeedsTranslation(channels: readonly CatalogChannel[]): boolean {
  return needsTranslation('oaic', channels);
}

/** The oaic path's prepared chat request (body already checked as a chat completion request) as a cross-family call. */
export function oaicChatCall(prepared: PreparedOaicChat): ChatCall {
  return createChatCall({
    family: 'oaic',
    caller: prepared.caller,
    modelId: prepared.modelId,
    channels: prepared.channels,
    body: prepared.body,
    decode: () => fromOaicRequest(prepared.body),
    stream: prepared.body.stream === true,
    metered: prepared.metered,
  });
}
