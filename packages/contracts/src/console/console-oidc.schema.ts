import { z } from 'zod';
import { InputSlug, isPrintable, printableText } from '../inputs/input-text.schema';
import { ConsoleRole } from './console-people.schema';
import { ClientInfo, TokenHash } from './console-session.schema';

/** A tenant's single sign-on through an OpenID Connect provider. */
export const OidcConfigureRequest = z
  .object({
    tenant: InputSlug,
    issuer: z.url(),
    clientId: printableText(256).min(1),
    clientSecret: printableText(1024).min(1),
    /** Role given to a person the provider vouches for who has no account yet; null: only invited people may sign in. */
    defaultRole: ConsoleRole.nullable().default(null),
  })
  .strict();
export type OidcConfigureRequest = z.input<typeof OidcConfigureRequest>;

/** The configuration as shown back: never the client secret. */
export const OidcConfigView = z.object({
  tenant: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  defaultRole: ConsoleRole.nullable(),
});
export type OidcConfigView = z.infer<typeof OidcConfigView>;

export const OidcShowRequest = z.object({ tenant: InputSlug }).strict();

/** The sign-in page's request to start single sign-on: the organization (tenant slug) typed in. */
export const OidcStartQuery = z
  .object({ tenant: z.string().trim().toLowerCase().min(1, 'enter your organization').max(64).refine(isPrintable, 'control characters are not allowed') })
  .strict();
/** The provider's redirect back: the state, and whatever else the provider adds. */
export const OidcCallbackQuery = z.object({ state: printableText(256).min(16) }).passthrough();

/** Starts a sign-in: `redirectUri` is the edge's callback on the origin the browser uses. */
export const OidcBeginRequest = z.object({ tenant: InputSlug, redirectUri: z.url() });
export const OidcBeginReply = z.object({ authorizationUrl: z.url(), state: z.string().min(16) });

/** Ends it: the full callback URL the provider redirected the browser to (code and state in its query). */
export const OidcCompleteRequest = z.object({
  state: z.string().min(16).max(256),
  callbackUrl: z.url(),
  client: ClientInfo,
  /** The session the browser held before, ended as any sign-in ends it. */
  previousTokenHash: TokenHash.nullable().default(null),
});
