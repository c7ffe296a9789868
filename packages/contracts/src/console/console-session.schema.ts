import { z } from 'zod';
import { InputSlug } from '../inputs/input-text.schema';
import { ConsoleEmail, ConsoleRole, OpaqueToken } from './console-people.schema';

/** The SHA-256 of a token, as stored and looked up. */
export const TokenHash = z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits');
const Hex64 = TokenHash;

/** `tenant`: a person of a tenant on the public listener; `operator`: the admin token's holder on the admin listener. */
export const ConsoleSessionKind = z.enum(['tenant', 'operator']);
export type ConsoleSessionKind = z.infer<typeof ConsoleSessionKind>;

/** What the edge caches per session cookie: who is signed in, where, until when, and the session's CSRF token. */
export const ConsoleSessionContext = z.object({
  sessionId: z.uuid(),
  kind: ConsoleSessionKind,
  userId: z.uuid().nullable(),
  email: z.string().nullable(),
  role: ConsoleRole.nullable(),
  tenantId: z.uuid().nullable(),
  tenantSlug: z.string().nullable(),
  /** Sent back by the page in a header on every state-changing call. */
  csrfToken: OpaqueToken,
  expiresAt: z.string(),
});
export type ConsoleSessionContext = z.infer<typeof ConsoleSessionContext>;

/** Who is signing in, for the session list. */
export const ClientInfo = z.object({ ip: z.string().max(64).nullable().default(null), userAgent: z.string().max(256).nullable().default(null) });
export type ClientInfo = z.input<typeof ClientInfo>;

export const SignInRequest = z.object({ email: ConsoleEmail, password: z.string().min(1, 'enter your password').max(4096) }).strict();
export type SignInRequest = z.infer<typeof SignInRequest>;

/** Over NATS: the credentials, who asks, and the session the browser held before (revoked: a sign-in rotates the session). */
export const SignInMessage = SignInRequest.extend({ client: ClientInfo, previousTokenHash: Hex64.nullable().default(null) });
export type SignInMessage = z.input<typeof SignInMessage>;

export const OpenOperatorSessionMessage = z.object({ client: ClientInfo, previousTokenHash: Hex64.nullable().default(null) });

/** A new session: the token goes into the cookie and is never stored; the context is what resolving it returns. */
export const ConsoleSessionIssued = z.object({ token: OpaqueToken, session: ConsoleSessionContext });
export type ConsoleSessionIssued = z.infer<typeof ConsoleSessionIssued>;

export const SessionResolveRequest = z.object({ tokenHash: Hex64 });
/** `null`: unknown, ended, revoked or expired. */
export const SessionResolveReply = ConsoleSessionContext.nullable();

export const SignOutMessage = z.object({ tokenHash: Hex64 });

/** Ends sessions at once on every edge: one by id, or every session of a person or of a tenant. */
export const SessionRevokeRequest = z
  .object({ id: z.uuid().optional(), tenant: InputSlug.optional(), email: ConsoleEmail.optional() })
  .strict()
  .refine((r) => (r.id !== undefined) !== (r.tenant !== undefined), { message: 'give a session id, or a tenant (and optionally an email)', path: ['id'] })
  .refine((r) => r.email === undefined || r.tenant !== undefined, { message: 'an email needs its tenant', path: ['tenant'] });
export type SessionRevokeRequest = z.infer<typeof SessionRevokeRequest>;
export const SessionRevokeReply = z.object({ revoked: z.number().int() });

export const SessionListRequest = z.object({ tenant: InputSlug.optional(), email: ConsoleEmail.optional() }).strict();
export const ConsoleSessionView = z.object({
  id: z.uuid(),
  kind: ConsoleSessionKind,
  tenant: z.string().nullable(),
  email: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type ConsoleSessionView = z.infer<typeof ConsoleSessionView>;
export const ConsoleSessionList = z.object({ data: z.array(ConsoleSessionView) });
