// The protocols that speak the OpenAI API (its bodies, answers and streams) and so serve every oaic
// operation: each names how an operation's call is addressed and how its refusals read.
import type { ProviderProtocol } from '@gateway/contracts';
import type { UpstreamErrorTransform } from '../ir/upstream-error';
import type { ChannelTarget, OaicOperation, UpstreamRequest } from '../provider.types';
import { fromAzureError } from './azure-openai/azure-openai-error.map';
import { toAzureUpstream } from './azure-openai/azure-openai.request';
import { fromUpstreamError } from './openai/openai-error.map';
import { toUpstream, type ToUpstreamOptions } from './openai/openai.adapter';

export type OpenaiCompatibleProtocol = Extract<ProviderProtocol, 'openai' | 'azure-openai'>;

interface OpenaiDialect {
  request(op: OaicOperation, body: Record<string, unknown>, channel: ChannelTarget, options: ToUpstreamOptions): UpstreamRequest;
  fromError: UpstreamErrorTransform;
}

const DIALECTS: Record<OpenaiCompatibleProtocol, OpenaiDialect> = {
  openai: { request: toUpstream, fromError: fromUpstreamError },
  'azure-openai': { request: toAzureUpstream, fromError: fromAzureError },
};

export function isOpenaiCompatible(protocol: ProviderProtocol): protocol is OpenaiCompatibleProtocol {
  return protocol in DIALECTS;
}

function dialectOf(protocol: ProviderProtocol): OpenaiDialect {
  return isOpenaiCompatible(protocol) ? DIALECTS[protocol] : DIALECTS.openai;
}

/** An oaic operation's call on an OpenAI-compatible channel, addressed as its protocol wants. */
export function toCompatibleUpstream(op: OaicOperation, body: Record<string, unknown>, channel: ChannelTarget, options: ToUpstreamOptions): UpstreamRequest {
  return dialectOf(channel.protocol).request(op, body, channel, options);
}

/** The refusal reader of an OpenAI-compatible channel's protocol. */
export function compatibleErrorOf(protocol: ProviderProtocol): UpstreamErrorTransform {
  return dialectOf(protocol).fromError;
}
