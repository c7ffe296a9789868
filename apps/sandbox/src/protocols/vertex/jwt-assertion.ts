// Judges a service account's JWT assertion as Google's token endpoint does: RS256 signed by a known
// account's key, addressed to its token URI, short-lived and current, asking for the cloud-platform scope.
// Refusals carry OAuth's error codes and Google's wording.
import { verify } from 'node:crypto';
import { z } from 'zod';
import type { TrustedAccount } from './test-service-account';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** The longest life Google accepts for an assertion, and the clock skew it forgives. */
const MAX_LIFETIME_SECONDS = 3600;
const SKEW_SECONDS = 60;

const JwtHeader = z.object({ alg: z.string(), typ: z.string().optional(), kid: z.string().optional() });
const AssertionClaims = z.object({
  iss: z.string(),
  aud: z.string(),
  scope: z.string().optional(),
  iat: z.number(),
  exp: z.number(),
  sub: z.string().optional(),
});
export type AssertionClaims = z.infer<typeof AssertionClaims>;

export interface AssertionRefusal {
  error: 'invalid_grant' | 'invalid_scope';
  description: string;
}

export type AssertionVerdict = { ok: true; claims: AssertionClaims; account: TrustedAccount } | ({ ok: false } & AssertionRefusal);

const refuse = (error: AssertionRefusal['error'], description: string): AssertionVerdict => ({ ok: false, error, description });

function decodeSegment<S extends z.ZodType>(schema: S, segment: string): z.infer<S> | null {
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function verifyAssertion(assertion: string, accounts: ReadonlyMap<string, TrustedAccount>, nowSeconds: number): AssertionVerdict {
  const segments = assertion.split('.');
  if (segments.length !== 3) return refuse('invalid_grant', 'Invalid JWT: the assertion is not a signed JWT.');
  const [headerSegment, claimsSegment, signatureSegment] = segments as [string, string, string];
  const header = decodeSegment(JwtHeader, headerSegment);
  const claims = decodeSegment(AssertionClaims, claimsSegment);
  if (!header || !claims) return refuse('invalid_grant', 'Invalid JWT: the header or the claim set cannot be read.');
  if (header.alg !== 'RS256') return refuse('invalid_grant', `Invalid JWT: the signing algorithm must be RS256, not ${header.alg}.`);
  const account = accounts.get(claims.iss);
  if (!account) return refuse('invalid_grant', 'Invalid grant: account not found');
  const signed = Buffer.from(`${headerSegment}.${claimsSegment}`);
  if (!verify('RSA-SHA256', signed, account.publicKey, Buffer.from(signatureSegment, 'base64url'))) return refuse('invalid_grant', 'Invalid JWT Signature.');
  if (claims.aud !== account.tokenUri) return refuse('invalid_grant', `Invalid JWT: Failed audience check. The expected audience is ${account.tokenUri}.`);
  const timely = claims.exp > nowSeconds && claims.iat <= nowSeconds + SKEW_SECONDS && claims.exp - claims.iat <= MAX_LIFETIME_SECONDS;
  if (!timely) {
    return refuse(
      'invalid_grant',
      'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
    );
  }
  if (!(claims.scope ?? '').split(/\s+/).includes(CLOUD_PLATFORM_SCOPE)) return refuse('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
  return { ok: true, claims, account };
}
