// Google access tokens for a Vertex provider through google-auth-library: a service-account key file (a JWT
// signed with its key, exchanged at Google's token endpoint) or workload identity (application default
// credentials). The token is cached and renewed before it expires, one renewal in flight for every caller,
// and a rotated key file is read again; a failure is the provider's upstream_error, naming it and nothing secret.
import { GatewayError } from '@gateway/contracts';
import { type AuthClient, GoogleAuth } from 'google-auth-library';
import { stat } from 'node:fs/promises';
import { z } from 'zod';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Where google-auth-library sends every service-account assertion; a key file's `token_uri` does not move it. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const DEFAULT_RENEW_BEFORE_MS = 5 * 60_000;

interface VertexTokenCommon {
  /** Named in errors, so an operator knows which provider's credentials failed. */
  providerId: string;
  /** How long before expiry a token is renewed (default five minutes). */
  renewBeforeMs?: number;
}

export type VertexTokenOptions = VertexTokenCommon &
  (
    | {
        credentialsFile: string;
        /** Another token endpoint than Google's (the sandbox's), for this key file's assertions. */
        tokenUrl?: string;
      }
    | { workload: true }
  );

export interface VertexTokenSource {
  token(): Promise<string>;
}

export interface IssuedAccessToken {
  token: string;
  expiresAtMs: number;
}

const HttpFailure = z.object({ status: z.number().int() });

export function tokenFailure(providerId: string, error: unknown): GatewayError {
  const failure = HttpFailure.safeParse(error);
  const why = failure.success
    ? `its token endpoint answered HTTP ${failure.data.status}`
    : 'its credentials could not be read or its token endpoint could not be reached';
  return new GatewayError('upstream_error', `Provider "${providerId}" could not get a Google access token: ${why}.`);
}

/** Caches what `issue` returns until `renewBeforeMs` before its expiry; concurrent callers share one renewal. */
export function cachedTokenSource(
  providerId: string,
  issue: () => Promise<IssuedAccessToken>,
  renewBeforeMs = DEFAULT_RENEW_BEFORE_MS,
  now: () => number = Date.now,
): VertexTokenSource {
  let current: IssuedAccessToken | null = null;
  let renewal: Promise<string> | null = null;
  // Deferred, so that even a synchronous failure of `issue` ends the renewal only after it was stored.
  const renew = (): Promise<string> =>
    Promise.resolve()
      .then(issue)
      .then(
        (issued) => {
          current = issued;
          return issued.token;
        },
        (error: unknown) => {
          throw tokenFailure(providerId, error);
        },
      )
      .finally(() => {
        renewal = null;
      });
  return {
    token(): Promise<string> {
      if (current && current.expiresAtMs - renewBeforeMs > now()) return Promise.resolve(current.token);
      renewal ??= renew();
      return renewal;
    },
  };
}

/** Sends the client's token requests for Google's endpoint to `tokenUrl` instead. */
export function sendTokenRequestsTo(client: AuthClient, tokenUrl: string): void {
  const target = new URL(tokenUrl);
  client.transporter.interceptors.request.add({
    resolved: async (config) => {
      if (config.url.href === GOOGLE_TOKEN_URL) config.url = new URL(target);
      return config;
    },
  });
}

async function issueWith(client: AuthClient): Promise<IssuedAccessToken> {
  const { token } = await client.getAccessToken();
  if (!token) throw new Error('the token endpoint answered no access token');
  return { token, expiresAtMs: client.credentials.expiry_date ?? 0 };
}

function loadClient(options: VertexTokenOptions, renewBeforeMs: number): Promise<AuthClient> {
  const auth = new GoogleAuth({
    scopes: [CLOUD_PLATFORM_SCOPE],
    ...('credentialsFile' in options ? { keyFile: options.credentialsFile } : {}),
    // The client renews on the same schedule as the cache, so a renewal always reaches the token endpoint;
    // its requests go through Node's own fetch, as every other upstream call does.
    clientOptions: { eagerRefreshThresholdMillis: renewBeforeMs, transporterOptions: { fetchImplementation: fetch } },
  });
  return auth.getClient().then((client) => {
    if ('credentialsFile' in options && options.tokenUrl) sendTokenRequestsTo(client, options.tokenUrl);
    return client;
  });
}

export function vertexAccessToken(options: VertexTokenOptions): VertexTokenSource {
  const renewBeforeMs = options.renewBeforeMs ?? DEFAULT_RENEW_BEFORE_MS;
  let loaded: { client: Promise<AuthClient>; version: number | null } | null = null;
  // A key file is looked at before each renewal: a rotated one (a Kubernetes Secret updated in place) is read
  // again, and one that could not be read is tried again, with no restart.
  const currentClient = async (): Promise<AuthClient> => {
    const version = 'credentialsFile' in options ? (await stat(options.credentialsFile)).mtimeMs : null;
    if (!loaded || loaded.version !== version) {
      const client = loadClient(options, renewBeforeMs);
      const entry = { client, version };
      client.catch(() => {
        if (loaded === entry) loaded = null;
      });
      loaded = entry;
    }
    return loaded.client;
  };
  return cachedTokenSource(options.providerId, async () => issueWith(await currentClient()), renewBeforeMs);
}
