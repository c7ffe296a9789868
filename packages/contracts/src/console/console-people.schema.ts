import { z } from 'zod';
import { InputSlug } from '../inputs/input-text.schema';

/** `owner`: everything; `developer`: keys and webhooks; `viewer`: read only. */
export const ConsoleRole = z.enum(['owner', 'developer', 'viewer']);
export type ConsoleRole = z.infer<typeof ConsoleRole>;

/** What a console call needs of the signed-in person; each role holds the grants listed for it. */
export const ConsoleGrant = z.enum(['read', 'keys', 'webhooks', 'people']);
export type ConsoleGrant = z.infer<typeof ConsoleGrant>;

export const ROLE_GRANTS: Record<ConsoleRole, readonly ConsoleGrant[]> = {
  owner: ['read', 'keys', 'webhooks', 'people'],
  developer: ['read', 'keys', 'webhooks'],
  viewer: ['read'],
};

export function roleAllows(role: ConsoleRole, grant: ConsoleGrant): boolean {
  return ROLE_GRANTS[role].includes(grant);
}

/** Emails are compared lowercased and trimmed: one person, one account. */
export const ConsoleEmail = z.string().trim().toLowerCase().max(254).pipe(z.email());

const TenantSlug = InputSlug;

/** A one-time token handed out in a link (invite) or a cookie (session): 32 random bytes, base64url. */
export const OpaqueToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a token of 43 base64url characters');

export const ConsoleInviteRequest = z
  .object({
    tenant: TenantSlug,
    email: ConsoleEmail,
    role: ConsoleRole,
    /** How long the link works. */
    ttlHours: z.number().int().min(1).max(720).default(72),
  })
  .strict();
export type ConsoleInviteRequest = z.input<typeof ConsoleInviteRequest>;

/** An invite as accounts issues it: the token is shown once, only its hash is stored. */
export const ConsoleInviteIssued = z.object({
  id: z.uuid(),
  tenant: z.string(),
  email: z.string(),
  role: ConsoleRole,
  token: OpaqueToken,
  expiresAt: z.string(),
});
export type ConsoleInviteIssued = z.infer<typeof ConsoleInviteIssued>;

/** What the admin API answers: the issued invite and the link to send the person. */
export const ConsoleInviteView = ConsoleInviteIssued.extend({ link: z.url() });
export type ConsoleInviteView = z.infer<typeof ConsoleInviteView>;

export const InviteTokenRequest = z.object({ token: OpaqueToken }).strict();

/** What the set-password page shows before the password is chosen. */
export const ConsoleInviteInfo = z.object({ email: z.string(), tenant: z.string(), role: ConsoleRole, expiresAt: z.string() });
export type ConsoleInviteInfo = z.infer<typeof ConsoleInviteInfo>;

/** The password's rules are the service's (`@gateway/contracts/password`), so a refusal names the rule. */
export const AcceptInviteRequest = z.object({ token: OpaqueToken, password: z.string().max(4096) }).strict();
export type AcceptInviteRequest = z.infer<typeof AcceptInviteRequest>;

export const ConsoleUserView = z.object({
  id: z.uuid(),
  tenant: z.string(),
  email: z.string(),
  role: ConsoleRole,
  /** The person has set a password (an invite not yet accepted: false). */
  hasPassword: z.boolean(),
  /** Signed in through the tenant's single sign-on at least once. */
  sso: z.boolean(),
  lockedUntil: z.string().nullable(),
  createdAt: z.string(),
});
export type ConsoleUserView = z.infer<typeof ConsoleUserView>;

export const ConsoleUsersRequest = z.object({ tenant: TenantSlug }).strict();
export const ConsoleUserList = z.object({ data: z.array(ConsoleUserView) });
export type ConsoleUserList = z.infer<typeof ConsoleUserList>;

/** An accepted invite: who may now sign in, and to which tenant. */
export const ConsoleInviteAccepted = z.object({ email: z.string(), tenant: z.string() });
export type ConsoleInviteAccepted = z.infer<typeof ConsoleInviteAccepted>;
