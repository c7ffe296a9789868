import { GatewayError, SignInErrorCode } from '@gateway/contracts';
import { signInErrorCodeOf } from './sign-in-error-code';

describe('signInErrorCodeOf', () => {
  it.each([
    [GatewayError.invalid('enter your organization', 'tenant'), 'sso_organization_missing'],
    [GatewayError.invalid('This sign-in expired or was already used: start it again.', 'state'), 'sso_expired'],
    [GatewayError.notFound('tenant "acme" has no single sign-on', 'tenant'), 'sso_not_configured'],
    [new GatewayError('permission_denied', 'x@acme.example has no console account in acme: ask for an invite.'), 'sso_not_invited'],
    [new GatewayError('upstream_error', 'The identity provider refused the sign-in: <script>', null, 502), 'sso_provider_failed'],
    [new GatewayError('unavailable', 'accounts did not answer'), 'sso_failed'],
  ] as const)('maps %s to %s', (error, code) => {
    expect(signInErrorCodeOf(error)).toBe(code);
  });

  it('answers only codes of the sign-in page, never the error’s words', () => {
    const code = signInErrorCodeOf(new GatewayError('permission_denied', 'Evil sentence <b>here</b>'));
    expect(SignInErrorCode.safeParse(code).success).toBe(true);
  });
});
