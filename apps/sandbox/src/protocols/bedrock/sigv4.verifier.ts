// Checks a request's SigV4 signature the way AWS does: the key, the credential scope (region, service),
// the signing date within five minutes, the body's hash, and the signature itself, re-computed with the
// SDK's own signer over the request as received.
import { Hash } from '@smithy/hash-node';
import type { SourceData } from '@smithy/types';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { BedrockError } from './bedrock.errors';
import {
  BEDROCK_CLOCK_SKEW_MS,
  BEDROCK_SANDBOX_REGION,
  BEDROCK_SIGNING_SERVICE,
  BEDROCK_TEST_ACCESS_KEY_ID,
  BEDROCK_TEST_SECRET_ACCESS_KEY,
} from './bedrock.keys';

/** A request as it arrived: the raw URL (path still encoded as sent), its headers and its body bytes. */
export interface ReceivedRequest {
  method: string;
  rawUrl: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;_.-]+),\s*Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function invalid(message: string): BedrockError {
  return new BedrockError(403, 'InvalidSignatureException', message);
}

function signingDateOf(amzDate: string | undefined): Date {
  const match = amzDate ? AMZ_DATE.exec(amzDate) : null;
  if (!match) throw invalid("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

function checkFreshness(amzDate: string, signed: Date, now: Date): void {
  const stamp = (date: Date) =>
    date
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  if (signed.getTime() < now.getTime() - BEDROCK_CLOCK_SKEW_MS)
    throw invalid(`Signature expired: ${amzDate} is now earlier than ${stamp(new Date(now.getTime() - BEDROCK_CLOCK_SKEW_MS))} (${stamp(now)} - 5 min.)`);
  if (signed.getTime() > now.getTime() + BEDROCK_CLOCK_SKEW_MS)
    throw invalid(
      `Signature not yet current: ${amzDate} is still later than ${stamp(new Date(now.getTime() + BEDROCK_CLOCK_SKEW_MS))} (${stamp(now)} + 5 min.)`,
    );
}

function queryOf(rawQuery: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    const seen = query[key];
    query[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

/** Throws the BedrockError AWS would answer when the request is not signed by the sandbox's test key for its region. */
/** SHA-256 from Node's crypto, through the SDK's adapter. */
class NodeSha256 extends Hash {
  constructor(secret?: SourceData) {
    super('sha256', secret);
  }
}

const signers = new Map<string, SignatureV4>();

/** One signer per key, region and service: the SDK's signer keeps each day's signing key. */
function signerFor(accessKeyId: string, region: string, service: string): SignatureV4 {
  const key = `${accessKeyId}\n${region}\n${service}`;
  let signer = signers.get(key);
  if (!signer) {
    signer = new SignatureV4({ credentials: { accessKeyId, secretAccessKey: BEDROCK_TEST_SECRET_ACCESS_KEY }, region, service, sha256: NodeSha256 });
    if (signers.size > 64) signers.clear();
    signers.set(key, signer);
  }
  return signer;
}

export async function verifySigV4(request: ReceivedRequest, now: Date = new Date()): Promise<void> {
  const authorization = header(request.headers, 'authorization');
  if (!authorization) throw new BedrockError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const match = AUTHORIZATION.exec(authorization);
  if (!match) throw new BedrockError(403, 'InvalidSignatureException', 'Authorization header is not a valid AWS4-HMAC-SHA256 signature.');
  const [, accessKeyId, day, region, service, signedHeaderList, signature] = match as unknown as [string, string, string, string, string, string, string];
  if (accessKeyId !== BEDROCK_TEST_ACCESS_KEY_ID || header(request.headers, 'x-amz-security-token') !== undefined)
    throw new BedrockError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
  if (region !== BEDROCK_SANDBOX_REGION) throw invalid(`Credential should be scoped to a valid region. `);
  if (service !== BEDROCK_SIGNING_SERVICE) throw invalid(`Credential should be scoped to correct service: '${BEDROCK_SIGNING_SERVICE}'. `);
  const amzDate = header(request.headers, 'x-amz-date');
  const signingDate = signingDateOf(amzDate);
  checkFreshness(amzDate!, signingDate, now);
  if (!amzDate!.startsWith(day))
    throw invalid(
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${day}' != '${amzDate!.slice(0, 8)}', from '${amzDate}'.`,
    );
  const declaredHash = header(request.headers, 'x-amz-content-sha256');
  // Bedrock signs every payload: UNSIGNED-PAYLOAD (an S3 allowance) is a mismatch like any other hash.
  if (declaredHash !== undefined && declaredHash !== createHash('sha256').update(request.body).digest('hex'))
    throw invalid('The provided x-amz-content-sha256 header does not match what was computed.');

  const names = signedHeaderList.split(';');
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = header(request.headers, name);
    if (value === undefined) throw invalid(MISMATCH);
    headers[name] = value;
  }
  const [path, rawQuery = ''] = request.rawUrl.split('?', 2) as [string, string?];
  const host = headers.host ?? header(request.headers, 'host') ?? '';
  const [hostname = '', port] = host.split(':');
  const signer = signerFor(accessKeyId, region, service);
  const signed = await signer.sign(
    { method: request.method, protocol: 'http:', hostname, port: port ? Number(port) : undefined, path, query: queryOf(rawQuery), headers, body: request.body },
    { signingDate, signableHeaders: new Set(names) },
  );
  const expected = /Signature=([0-9a-f]{64})$/.exec(signed.headers.authorization ?? '')?.[1] ?? '';
  if (expected.length !== signature.length || !timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) throw invalid(MISMATCH);
}
