// google-auth-library clients for the sandbox's test service account. The library signs every assertion for,
// and posts it to, Google's token URL (a key file's token_uri does not move it), so the client's transporter
// sends those requests to the sandbox's token endpoint instead.
import { type AuthClient, GoogleAuth, JWT } from 'google-auth-library';
import { VERTEX_TEST_SERVICE_ACCOUNT, VERTEX_TEST_SERVICE_ACCOUNT_FILE } from '../../src/protocols/vertex/test-service-account';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** Node's own fetch: gaxios would otherwise import node-fetch dynamically, which jest's realm cannot. */
const transporterOptions = { fetchImplementation: fetch };

export function redirectTokenRequests<C extends AuthClient>(client: C, tokenUrl: string): C {
  client.transporter.interceptors.request.add({
    resolved: async (config) => {
      if (config.url.href === GOOGLE_TOKEN_URL) config.url = new URL(tokenUrl);
      return config;
    },
  });
  return client;
}

/** A GoogleAuth reading the test key file, as an application would, whose client gets its tokens from the sandbox. */
export async function sandboxGoogleAuth(tokenUrl: string): Promise<GoogleAuth> {
  const auth = new GoogleAuth({ keyFile: VERTEX_TEST_SERVICE_ACCOUNT_FILE, scopes: [CLOUD_PLATFORM_SCOPE], clientOptions: { transporterOptions } });
  redirectTokenRequests(await auth.getClient(), tokenUrl);
  return auth;
}

/** A JWT client for the test account, its key or claims replaced to make the assertions the sandbox must refuse. */
export function testAccountJwt(tokenUrl: string, overrides: { key?: string; additionalClaims?: Record<string, unknown>; scopes?: string[] } = {}): JWT {
  const client = new JWT({
    email: VERTEX_TEST_SERVICE_ACCOUNT.client_email,
    key: overrides.key ?? VERTEX_TEST_SERVICE_ACCOUNT.private_key,
    scopes: overrides.scopes ?? [CLOUD_PLATFORM_SCOPE],
    additionalClaims: overrides.additionalClaims,
    transporterOptions,
  });
  return redirectTokenRequests(client, tokenUrl);
}
