// SigV4 for Bedrock calls, with the SDK's own signer: the request is signed as it will be sent (the
// encoded path, the body's bytes), the host left to the HTTP client that derives it from the URL.
// Credentials come from the SDK's node chain (environment, shared files, web identity) or a given
// provider, memoized by the SDK and fetched again five minutes before they expire.
import { Sha256 } from '@aws-crypto/sha256-js';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { doesIdentityRequireRefresh, isIdentityExpired, memoizeIdentityProvider } from '@smithy/core';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import type { UpstreamRequest } from '../../provider.types';

export const BEDROCK_SIGNING_SERVICE = 'bedrock';

export interface BedrockSigning {
  region: string;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
}

/** The credentials to sign with: the node chain by default, any provider memoized until shortly before it expires. */
export function bedrockCredentials(provider?: AwsCredentialIdentityProvider): AwsCredentialIdentityProvider {
  return memoizeIdentityProvider(provider ?? fromNodeProviderChain(), isIdentityExpired, doesIdentityRequireRefresh)!;
}

function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const seen = query[key];
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

/** The request with its SigV4 headers (authorization, x-amz-date, and the session token where there is one). */
export async function signBedrockRequest(request: UpstreamRequest, { region, credentials }: BedrockSigning): Promise<UpstreamRequest> {
  const body = request.body;
  if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) throw new Error('a Bedrock request is signed over a body of text or bytes');
  const url = new URL(request.url);
  const signer = new SignatureV4({ credentials, region, service: BEDROCK_SIGNING_SERVICE, sha256: Sha256 });
  const signed = await signer.sign({
    method: request.method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: queryOf(url),
    headers: { ...request.headers, host: url.host },
    body,
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host') headers[name] = value;
  return { ...request, headers };
}
