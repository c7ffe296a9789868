import type { GatewayError, SignInErrorCode } from '@gateway/contracts';

/** The sign-in page's code for a failed single sign-on: the page owns the words, the error's own stay in the log. */
export function signInErrorCodeOf(error: GatewayError): SignInErrorCode {
  switch (error.code) {
    case 'invalid_request':
      if (error.param === 'tenant') return 'sso_organization_missing';
      return error.param === 'state' ? 'sso_expired' : 'sso_failed';
    case 'not_found':
      return 'sso_not_configured';
    case 'permission_denied':
      return 'sso_not_invited';
    case 'upstream_error':
    case 'upstream_timeout':
      return 'sso_provider_failed';
    default:
      return 'sso_failed';
  }
}
