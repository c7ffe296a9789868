import {
  ApplyResult,
  ConsoleInviteInfo,
  ConsoleInviteIssued,
  ConsoleModelList,
  ConsoleSessionIssued,
  ConsoleSessionList,
  ConsoleTenantPage,
  ConsoleUserList,
  GatewayError,
  SessionResolveReply,
  SessionRevokeReply,
  SUBJECTS,
} from '@gateway/contracts';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { catalogConfig, startAccountsHarness, type AccountsHarness } from './accounts.harness';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const C = SUBJECTS.accounts.console;
const PASSWORD = 'a long and quiet river';
const Accepted = z.object({ email: z.string(), tenant: z.string() });

describe('console people and sessions over NATS', () => {
  let h: AccountsHarness;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error as GatewayError,
    );
  const client = { ip: '127.0.0.1', userAgent: 'spec' };
  const invite = (email: string, role = 'developer', tenant = 'acme') => h.bus.request(C.users.invite, { tenant, email, role }, ConsoleInviteIssued);
  const signIn = (email: string, password: string, previousTokenHash?: string) =>
    h.bus.request(C.sessions.signIn, { email, password, client, previousTokenHash }, ConsoleSessionIssued);
  const resolve = (token: string) => h.bus.request(C.sessions.resolve, { tokenHash: sha256(token) }, SessionResolveReply);

  beforeAll(async () => {
    Object.assign(process.env, { CONSOLE_LOCKOUT_THRESHOLD: '3', CONSOLE_LOCKOUT_BASE_SECONDS: '1', CONSOLE_LOCKOUT_MAX_SECONDS: '4' });
    h = await startAccountsHarness('accounts_console');
    await h.bus.request(SUBJECTS.accounts.config.apply, catalogConfig(), ApplyResult);
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  });

  it('invites a person, who sets a password once through the link and signs in with it', async () => {
    const issued = await invite(' Dev@Example.com ');
    expect(issued).toMatchObject({ tenant: 'acme', email: 'dev@example.com', role: 'developer' });
    await expect(h.bus.request(C.users.inviteInfo, { token: issued.token }, ConsoleInviteInfo)).resolves.toMatchObject({
      email: 'dev@example.com',
      tenant: 'acme',
      role: 'developer',
    });
    const listed = await h.bus.request(C.users.list, { tenant: 'acme' }, ConsoleUserList);
    expect(listed.data).toEqual([expect.objectContaining({ email: 'dev@example.com', role: 'developer', hasPassword: false })]);

    const short = await failure(h.bus.request(C.users.acceptInvite, { token: issued.token, password: 'too short' }, Accepted));
    expect(short).toMatchObject({ code: 'invalid_request', param: 'password' });
    expect(short!.message).toContain('at least 15 characters');
    for (const guessable of ['qwertyuiopqwertyuiop', 'passwordpassword123', '1234567890123456', 'acme acme acme acme']) {
      const weak = await failure(h.bus.request(C.users.acceptInvite, { token: issued.token, password: guessable }, Accepted));
      expect(weak).toMatchObject({ code: 'invalid_request', param: 'password' });
      expect(weak!.message).toMatch(/^This password is easy to guess\./);
    }

    await expect(h.bus.request(C.users.acceptInvite, { token: issued.token, password: PASSWORD }, Accepted)).resolves.toEqual({
      email: 'dev@example.com',
      tenant: 'acme',
    });
    const reused = await failure(h.bus.request(C.users.acceptInvite, { token: issued.token, password: PASSWORD }, Accepted));
    expect(reused).toMatchObject({ code: 'not_found', param: 'token' });

    const session = await signIn('DEV@example.com', PASSWORD);
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.session).toMatchObject({ kind: 'tenant', email: 'dev@example.com', role: 'developer', tenantSlug: 'acme' });
    await expect(resolve(session.token)).resolves.toEqual(session.session);
  });

  it('answers an unknown email, a wrong password and a locked account alike, and locks with backoff', async () => {
    const issued = await invite('locked@example.com', 'viewer');
    await h.bus.request(C.users.acceptInvite, { token: issued.token, password: PASSWORD }, Accepted);
    const lockedUntil = async () =>
      (await h.bus.request(C.users.list, { tenant: 'acme' }, ConsoleUserList)).data.find((u) => u.email === 'locked@example.com')!.lockedUntil;
    // The lock operators see is written beside the answer: read it once it has landed.
    const lockedUntilOtherThan = async (before: string | null) => {
      for (const deadline = Date.now() + 10_000; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
        const until = await lockedUntil();
        if (until !== before || Date.now() > deadline) return until;
      }
    };
    const unknown = await failure(signIn('nobody@example.com', PASSWORD));
    const wrong = await failure(signIn('locked@example.com', 'not the password at all'));
    expect(unknown).toMatchObject({ code: 'authentication_failed', param: 'password', message: wrong!.message });
    await failure(signIn('locked@example.com', 'not the password at all'));
    const third = await failure(signIn('locked@example.com', 'not the password at all'));
    expect(third).toMatchObject({ code: 'authentication_failed', message: wrong!.message });
    expect(third!.retryAfterSeconds ?? null).toBeNull();
    const firstLock = await lockedUntilOtherThan(null);
    expect(firstLock).not.toBeNull();
    // Locked: even the right password is refused, with the same answer, until the lock ends.
    expect(await failure(signIn('locked@example.com', PASSWORD))).toMatchObject({ code: 'authentication_failed', message: wrong!.message });
    await new Promise((resolve) => setTimeout(resolve, Date.parse(firstLock!) - Date.now() + 50));
    await failure(signIn('locked@example.com', 'still not the password'));
    const secondLock = await lockedUntilOtherThan(firstLock);
    expect(Date.parse(secondLock!) - Date.parse(firstLock!)).toBeGreaterThanOrEqual(1_000);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(secondLock!) - Date.now() + 50));
    await expect(signIn('locked@example.com', PASSWORD)).resolves.toMatchObject({ session: { role: 'viewer' } });
    expect(await lockedUntil()).toBeNull();
    // A success clears the count: one wrong password is again only a wrong password.
    expect(await failure(signIn('locked@example.com', 'wrong again here'))).toMatchObject({ code: 'authentication_failed' });
    expect(await lockedUntil()).toBeNull();
  }, 30_000);

  it('rotates the session at sign-in, and broadcasts every end so edges drop it at once', async () => {
    const first = await signIn('dev@example.com', PASSWORD);
    const second = await signIn('dev@example.com', PASSWORD, sha256(first.token));
    expect(second.token).not.toBe(first.token);
    await h.nextEvent((e) => e.sessions.includes(sha256(first.token)));
    await expect(resolve(first.token)).resolves.toBeNull();

    await expect(h.bus.request(C.sessions.signOut, { tokenHash: sha256(second.token) }, SessionRevokeReply)).resolves.toEqual({ revoked: 1 });
    await h.nextEvent((e) => e.sessions.includes(sha256(second.token)));
    await expect(resolve(second.token)).resolves.toBeNull();

    const a = await signIn('dev@example.com', PASSWORD);
    const b = await signIn('dev@example.com', PASSWORD);
    const live = await h.bus.request(C.sessions.list, { tenant: 'acme', email: 'dev@example.com' }, ConsoleSessionList);
    expect(live.data.map((s) => s.id)).toEqual(expect.arrayContaining([a.session.sessionId, b.session.sessionId]));
    expect(JSON.stringify(live)).not.toContain(a.token);
    await expect(h.bus.request(C.sessions.revoke, { tenant: 'acme', email: 'dev@example.com' }, SessionRevokeReply)).resolves.toEqual({
      revoked: live.data.length,
    });
    await expect(resolve(a.token)).resolves.toBeNull();
    await expect(resolve(b.token)).resolves.toBeNull();
  });

  it('ends every session of a person whose password is set again through a new invite', async () => {
    const before = await signIn('dev@example.com', PASSWORD);
    const again = await invite('dev@example.com', 'owner');
    await h.bus.request(C.users.acceptInvite, { token: again.token, password: 'another long passphrase' }, Accepted);
    await expect(resolve(before.token)).resolves.toBeNull();
    expect(await failure(signIn('dev@example.com', PASSWORD))).toMatchObject({ code: 'authentication_failed' });
    await expect(signIn('dev@example.com', 'another long passphrase')).resolves.toMatchObject({ session: { role: 'owner' } });
  });

  it('keeps one account per email across tenants, and opens operator sessions without a person', async () => {
    expect(await failure(invite('dev@example.com', 'viewer', 'globex'))).toMatchObject({ code: 'invalid_request', param: 'email' });
    expect(await failure(invite('x@example.com', 'viewer', 'ghost'))).toMatchObject({ code: 'not_found', param: 'tenant' });
    expect(await failure(invite('x@example.com', 'admin'))).toMatchObject({ code: 'invalid_request', param: 'role' });
    const operator = await h.bus.request(C.sessions.openOperator, { client }, ConsoleSessionIssued);
    await expect(resolve(operator.token)).resolves.toMatchObject({ kind: 'operator', userId: null, tenantId: null });
  });

  it('lists the models a tenant may use with their prices, and tenants page by page', async () => {
    expect(await failure(h.bus.request(C.models, { tenantId: 'acme' }, ConsoleModelList))).toMatchObject({ code: 'invalid_request', param: 'tenantId' });
    const acmeId = (await h.bus.request(SUBJECTS.accounts.tenants.get, { slug: 'acme' }, z.object({ id: z.string() }))).id;
    const priced = await h.bus.request(C.models, { tenantId: acmeId }, ConsoleModelList);
    expect(priced.data.map((m) => m.id).sort()).toEqual(['acme-private', 'sandbox-embed', 'sandbox-gpt']);
    expect(priced.data.find((m) => m.id === 'sandbox-gpt')).toMatchObject({
      prices: { inputPerMTok: '0.500000', outputPerMTok: '1.500000' },
      overridden: false,
    });

    const page = await h.bus.request(C.tenants, { limit: 1 }, ConsoleTenantPage);
    expect(page).toMatchObject({ total: 2, offset: 0, limit: 1 });
    expect(page.data).toHaveLength(1);
    const next = await h.bus.request(C.tenants, { limit: 1, offset: 1 }, ConsoleTenantPage);
    expect([page.data[0]!.slug, next.data[0]!.slug].sort()).toEqual(['acme', 'globex']);
  });
});
