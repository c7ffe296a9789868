import type { SignInErrorCode } from '@gateway/contracts/console';

/** The sign-in page's own sentence for each code a sign-in navigation can come back with. */
export const SIGN_IN_ERRORS: Record<SignInErrorCode, string> = {
  sso_organization_missing: 'Enter your organization to sign in with single sign-on.',
  sso_not_configured: 'This organization does not sign in with single sign-on: sign in with your email and password.',
  sso_expired: 'This sign-in expired or was started in another browser: start it again.',
  sso_not_invited: 'Your identity provider signed you in, but you have no console account here: ask a tenant owner or operator for an invite.',
  sso_provider_failed: 'Your identity provider refused the sign-in or could not be reached: try again, or ask your administrator.',
  sso_failed: 'Single sign-on did not work: try again in a moment.',
};
