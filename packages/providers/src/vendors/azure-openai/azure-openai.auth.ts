// Microsoft Entra ID for Azure OpenAI: client credentials through @azure/identity's ClientSecretCredential,
// the token cached per provider and renewed before expiry. Providers keyed by `api-key` need no step.
import { ClientSecretCredential, type ClientSecretCredentialOptions } from '@azure/identity';
import { GatewayError, type AzureEntraSettings } from '@gateway/contracts';
import { AccessTokenCache, type AccessTokenCacheOptions } from '../../auth/access-token.cache';
import type { UpstreamAuth } from '../../auth/upstream-auth.types';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { azureSettingsOf } from './azure-openai.settings';

export const AZURE_OPENAI_SCOPE = 'https://cognitiveservices.azure.com/.default';

export interface AzureEntraAuthOptions {
  env?: NodeJS.ProcessEnv;
  /** Passed to the credential (transport options such as `tlsOptions`). */
  credential?: ClientSecretCredentialOptions;
  cache?: AccessTokenCacheOptions;
}

function statusOf(cause: unknown): number | null {
  const status = (cause as { statusCode?: unknown })?.statusCode;
  return typeof status === 'number' ? status : null;
}

function tokenFailure(providerId: string, cause: unknown): GatewayError {
  if (cause instanceof GatewayError) return cause;
  const status = statusOf(cause);
  return new GatewayError(
    'upstream_error',
    `The provider "${providerId}" could not get an access token from Microsoft Entra ID${status ? ` (HTTP ${status})` : ''}.`,
    null,
    502,
  );
}

function withBearer(request: UpstreamRequest, token: string): UpstreamRequest {
  const { 'api-key': _key, ...headers } = request.headers;
  return { ...request, headers: { ...headers, authorization: `Bearer ${token}` } };
}

export class AzureEntraAuth implements UpstreamAuth {
  private readonly tokens: AccessTokenCache;

  constructor(providerId: string, entra: AzureEntraSettings, options: AzureEntraAuthOptions = {}) {
    const secret = (options.env ?? process.env)[entra.clientSecretEnv];
    const credential = secret
      ? new ClientSecretCredential(entra.tenantId, entra.clientId, secret, {
          ...(entra.authorityHost ? { authorityHost: entra.authorityHost, disableInstanceDiscovery: true } : {}),
          ...options.credential,
        })
      : null;
    const missing = new GatewayError(
      'upstream_error',
      `The provider "${providerId}" has no client secret: the environment variable ${entra.clientSecretEnv} is not set.`,
      null,
      502,
    );
    this.tokens = new AccessTokenCache(
      () => (credential ? credential.getToken(AZURE_OPENAI_SCOPE) : Promise.reject(missing)),
      (cause) => tokenFailure(providerId, cause),
      options.cache,
    );
  }

  authorize(request: UpstreamRequest): UpstreamRequest | Promise<UpstreamRequest> {
    const token = this.tokens.token();
    return typeof token === 'string' ? withBearer(request, token) : token.then((ready) => withBearer(request, ready));
  }
}

/** The auth step of an Azure provider: Entra ID when its settings name a client, none for an `api-key`. */
export function azureOpenaiAuth(channel: ChannelTarget): UpstreamAuth | null {
  const { entra } = azureSettingsOf(channel);
  return entra ? new AzureEntraAuth(channel.providerId, entra) : null;
}
