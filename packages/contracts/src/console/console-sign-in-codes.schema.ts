import { z } from 'zod';

/**
 * Why a sign-in navigation came back to the sign-in page (`/console/sign-in?error=<code>`). The page shows
 * its own sentence for each code; no text from the address ever reaches it.
 */
export const SignInErrorCode = z.enum([
  'sso_organization_missing',
  'sso_not_configured',
  'sso_expired',
  'sso_not_invited',
  'sso_provider_failed',
  'sso_failed',
]);
export type SignInErrorCode = z.infer<typeof SignInErrorCode>;

/** What the sign-in page may say on arrival (`?notice=<code>`), after another page sent the person there. */
export const SignInNoticeCode = z.enum(['password-set']);
export type SignInNoticeCode = z.infer<typeof SignInNoticeCode>;
