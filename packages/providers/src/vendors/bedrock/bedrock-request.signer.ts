// SigV4 for Bedrock calls, with the SDK's own signer (hashing with Node's crypto through the SDK's adapter): the request is signed as it will be sent (the
// encoded path, the body's bytes), the host left to the HTTP client that derives it from the URL.
// Credentials come from the SDK's node chain (environment, shared files, web identity) or a given
// provider, memoized by the SDK and fetched again five minutes before they expire.
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { doesIdentityRequireRefresh, isIdentityExpired, memoizeIdentityProvider } from '@smithy/core';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, SourceData } from '@smithy/types';
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

/** SHA-256 for the signer from Node's own crypto, through the SDK's adapter for it. */
class NodeSha256 extends Hash {
  constructor(secret?: SourceData) {
    super('sha256', secret);
  }
}

export type BedrockSigner = (request: UpstreamRequest) => Promise<UpstreamRequest>;

/**
 * A signer for one region and one credential source, kept for every call it signs: the SDK's signer then
 * derives each day's signing key once, not per request.
 */
export function bedrockSigner({ region, credentials }: BedrockSigning): BedrockSigner {
  const signer = new SignatureV4({ credentials, region, service: BEDROCK_SIGNING_SERVICE, sha256: NodeSha256 });
  return async (request) => {
    const body = request.body;
    if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) throw new Error('a Bedrock request is signed over a body of text or bytes');
    const url = new URL(request.url);
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
  };
}

/** The request with its SigV4 headers (authorization, x-amz-date, and the session token where there is one). */
export function signBedrockRequest(request: UpstreamRequest, signing: BedrockSigning): Promise<UpstreamRequest> {
  return bedrockSigner(signing)(request);
}
