import { ConsoleDeadLetterId, ConsoleDeadLettersRequest } from './console-operator.schema';
import { OidcConfigureRequest } from './console-oidc.schema';
import { LedgerRequest } from '../usage/money-views.schema';

describe('console and admin inputs a store could not hold', () => {
  it('refuses dead letter ids and ledger cursors beyond what a stream sequence or a bigint holds', () => {
    expect(ConsoleDeadLettersRequest.safeParse({ after: '99999999999999999999' }).success).toBe(false);
    expect(ConsoleDeadLettersRequest.safeParse({ after: '123456789012345' }).success).toBe(true);
    expect(ConsoleDeadLetterId.safeParse({ id: '1234567890123456' }).success).toBe(false);
    expect(ConsoleDeadLetterId.safeParse({ id: '42' }).success).toBe(true);
    expect(LedgerRequest.safeParse({ tenant: 'acme', cursor: '9223372036854775808123' }).success).toBe(false);
  });

  it('refuses a single sign-on client id or secret with a lone surrogate or a control character', () => {
    const base = { tenant: 'acme', issuer: 'https://login.example.com', clientId: 'gateway', clientSecret: 'secret' };
    expect(OidcConfigureRequest.safeParse(base).success).toBe(true);
    for (const clientId of ['塯茄\udc7f', 'a\u0000b']) expect(OidcConfigureRequest.safeParse({ ...base, clientId }).success).toBe(false);
    expect(OidcConfigureRequest.safeParse({ ...base, clientSecret: '\ud83d' }).success).toBe(false);
  });
});
