// Which adapter speaks each upstream protocol. Adding a vendor is a folder of pure transforms plus one
// entry here.
import { GatewayError, type ProviderProtocol } from '@gateway/contracts';
import { extractUsage, fromUpstream, toUpstream } from './openai/openai.adapter';
import { fromUpstreamError } from './openai/openai-error.map';

export interface OaicAdapter {
  toUpstream: typeof toUpstream;
  fromUpstream: typeof fromUpstream;
  fromUpstreamError: typeof fromUpstreamError;
  extractUsage: typeof extractUsage;
}

export const openaiAdapter: OaicAdapter = { toUpstream, fromUpstream, fromUpstreamError, extractUsage };

const ADAPTERS: Partial<Record<ProviderProtocol, OaicAdapter>> = { openai: openaiAdapter };

export function adapterFor(protocol: ProviderProtocol): OaicAdapter {
  const adapter = ADAPTERS[protocol];
  if (!adapter) throw new GatewayError('unavailable', `No adapter for upstream protocol "${protocol}".`);
  return adapter;
}
