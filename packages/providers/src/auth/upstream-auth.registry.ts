// The auth step of each protocol, chosen by the channel's protocol and built once per provider (rebuilt
// when its settings change, so a token cache lives as long as the provider's configuration). A protocol
// without an entry sends its calls as described, with no await added.
import type { ProviderProtocol } from '@gateway/contracts';
import type { ChannelTarget, UpstreamRequest } from '../provider.types';
import { azureOpenaiAuth } from '../vendors/azure-openai/azure-openai.auth';
import { bedrockAuth } from '../vendors/bedrock/bedrock.auth';
import { vertexAuth } from '../vendors/vertex/vertex-auth.step';
import type { UpstreamAuth, UpstreamAuthFactory } from './upstream-auth.types';

const AUTH_FACTORIES: Partial<Record<ProviderProtocol, UpstreamAuthFactory>> = {
  'azure-openai': azureOpenaiAuth,
  bedrock: bedrockAuth,
  vertex: vertexAuth,
};

interface BuiltAuth {
  settings: unknown;
  fingerprint: string;
  auth: UpstreamAuth | null;
}

const built = new Map<string, BuiltAuth>();

function fingerprintOf(channel: ChannelTarget): string {
  return `${channel.protocol}\n${channel.baseUrl}\n${JSON.stringify(channel.settings ?? null)}`;
}

function authOf(channel: ChannelTarget, factory: UpstreamAuthFactory): UpstreamAuth | null {
  const entry = built.get(channel.providerId);
  if (entry && entry.settings === channel.settings) return entry.auth;
  const fingerprint = fingerprintOf(channel);
  if (entry && entry.fingerprint === fingerprint) {
    entry.settings = channel.settings;
    return entry.auth;
  }
  const auth = factory(channel);
  built.set(channel.providerId, { settings: channel.settings, fingerprint, auth });
  return auth;
}

/** The call made acceptable to the channel's upstream: as it is for protocols without auth, at once when a token is cached. */
export function authorizeUpstream(request: UpstreamRequest, channel: ChannelTarget): UpstreamRequest | Promise<UpstreamRequest> {
  const factory = AUTH_FACTORIES[channel.protocol];
  if (!factory) return request;
  const auth = authOf(channel, factory);
  return auth ? auth.authorize(request, channel) : request;
}

/** Forgets every provider's auth and cached tokens (tests, and a process that reloads its whole catalog). */
export function resetUpstreamAuth(): void {
  built.clear();
}
