import { GatewayError, SUBJECTS, type ConsoleSessionContext } from '@gateway/contracts';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { startTestEdge, type TestEdge } from '../testing/start-test-edge';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const token = () => randomBytes(32).toString('base64url');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: { code: string; param?: string | null }; [field: string]: unknown } | undefined;
  text: string;
}

describe('console API on the edge (fake accounts)', () => {
  let t: TestEdge;
  const sessions = new Map<string, ConsoleSessionContext>();
  const tenantId = randomUUID();
  const dist = mkdtempSync(path.join(os.tmpdir(), 'console-dist-'));

  function session(role: 'owner' | 'developer' | 'viewer' | null, kind: 'tenant' | 'operator' = 'tenant'): { cookie: string; context: ConsoleSessionContext } {
    const secret = token();
    const context: ConsoleSessionContext = {
      sessionId: randomUUID(),
      kind,
      userId: kind === 'tenant' ? randomUUID() : null,
      email: kind === 'tenant' ? `${role}@example.com` : null,
      role,
      tenantId: kind === 'tenant' ? tenantId : null,
      tenantSlug: kind === 'tenant' ? 'acme' : null,
      csrfToken: token(),
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    };
    sessions.set(sha256(secret), context);
    return { cookie: `${kind === 'tenant' ? 'gw_console' : 'gw_operator'}=${secret}`, context };
  }

  async function call(method: string, url: string, headers: Record<string, string> = {}, json?: unknown): Promise<Answer> {
    const sent = { ...headers, ...(json === undefined ? {} : { 'content-type': 'application/json' }) };
    const response = await request(url, { method: method as 'GET', headers: sent, body: json === undefined ? undefined : JSON.stringify(json) });
    const text = await response.body.text();
    let body: Answer['body'];
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, headers: response.headers, body, text };
  }

  const api = (pathname: string) => `${t.edge.url}/console/api${pathname}`;
  const own = () => ({ origin: t.edge.url });

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><meta name="console-side" content="tenant" /></head><body></body></html>');
    writeFileSync(path.join(dist, 'assets', 'main-abc12345.js'), 'console.log(1);');
    process.env.CONSOLE_DIST_DIR = dist;
    t = await startTestEdge({ ADMIN_TOKEN: 'admin-secret', TRUSTED_PROXIES: '127.0.0.1' });
    t.accounts.on(SUBJECTS.accounts.console.sessions.resolve, (payload) => sessions.get((payload as { tokenHash: string }).tokenHash) ?? null);
    t.accounts.on(SUBJECTS.accounts.console.sessions.signIn, (payload) => {
      const { email, password } = payload as { email: string; password: string };
      if (password !== 'the right long password') throw new GatewayError('authentication_failed', 'The email or the password is wrong.', 'password');
      const secret = token();
      const context = { ...session('developer').context, email };
      sessions.set(sha256(secret), context);
      return { token: secret, session: context };
    });
    t.accounts.on(SUBJECTS.accounts.console.sessions.signOut, (payload) => {
      sessions.delete((payload as { tokenHash: string }).tokenHash);
      return { revoked: 1 };
    });
    t.accounts.on(SUBJECTS.accounts.keys.list, () => []);
    t.accounts.on(SUBJECTS.accounts.keys.create, (payload) => ({
      id: randomUUID(),
      key: `sk-${'a'.repeat(48)}`,
      masked: 'sk-aaaa…aaaa',
      kind: 'payg',
      tenant: (payload as { tenant: string }).tenant,
      project: 'default',
    }));
  });

  afterAll(async () => {
    await t?.stop();
    delete process.env.CONSOLE_DIST_DIR;
  });

  it('signs in with a session cookie that is httpOnly, SameSite=Strict and scoped to /console, and never shows its token', async () => {
    const wrong = await call('POST', api('/session'), own(), { email: 'dev@example.com', password: 'not it' });
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: 'authentication_failed' } } });
    const signedIn = await call('POST', api('/session'), own(), { email: 'Dev@Example.com', password: 'the right long password' });
    expect(signedIn.status).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']);
    expect(cookie).toMatch(/^gw_console=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/console; HttpOnly; SameSite=Strict$/);
    expect(signedIn.body).toMatchObject({ kind: 'tenant', email: 'dev@example.com', role: 'developer', tenant: 'acme' });
    expect(signedIn.text).not.toContain(cookie.split(';')[0]!.split('=')[1]);
    const me = await call('GET', api('/session'), { cookie: cookie.split(';')[0]! });
    expect(me.body).toMatchObject({ email: 'dev@example.com', csrfToken: expect.any(String) });
  });

  it('marks the cookie Secure when a trusted proxy says the browser came over TLS', async () => {
    const signedIn = await call(
      'POST',
      api('/session'),
      { origin: 'https://gw.example.com', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'gw.example.com' },
      { email: 'dev@example.com', password: 'the right long password' },
    );
    expect(signedIn.status).toBe(200);
    expect(String(signedIn.headers['set-cookie'])).toMatch(/; Secure; SameSite=Strict$/);
  });

  it('refuses state-changing calls without the CSRF token, from another origin, or with no Origin at all', async () => {
    const { cookie, context } = session('owner');
    const csrf = { 'x-csrf-token': context.csrfToken };
    const create = (headers: Record<string, string>) => call('POST', api('/keys'), { cookie, ...headers }, { name: 'ci' });
    expect(await create({ ...own() })).toMatchObject({ status: 403, body: { error: { code: 'permission_denied', param: 'x-csrf-token' } } });
    expect(await create({ ...own(), 'x-csrf-token': token() })).toMatchObject({ status: 403, body: { error: { param: 'x-csrf-token' } } });
    expect(await create({ origin: 'https://evil.example', ...csrf })).toMatchObject({ status: 403, body: { error: { param: 'origin' } } });
    expect(await create({ ...csrf })).toMatchObject({ status: 403, body: { error: { param: 'origin' } } });
    expect(await create({ ...own(), ...csrf })).toMatchObject({ status: 201, body: { tenant: 'acme' } });
    expect(t.accounts.calls.get(SUBJECTS.accounts.keys.create)).toEqual([{ tenant: 'acme', name: 'ci' }]);
  });

  it('refuses a stolen cookie replayed from another origin, even on reads', async () => {
    const { cookie } = session('owner');
    expect((await call('GET', api('/keys'), { cookie, ...own() })).status).toBe(200);
    expect(await call('GET', api('/keys'), { cookie, origin: 'https://evil.example' })).toMatchObject({ status: 403, body: { error: { param: 'origin' } } });
    expect((await call('GET', api('/keys'), { cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('enforces roles on the server: a viewer reads keys but may not create one', async () => {
    const { cookie, context } = session('viewer');
    expect((await call('GET', api('/keys'), { cookie })).status).toBe(200);
    const refused = await call('POST', api('/keys'), { cookie, ...own(), 'x-csrf-token': context.csrfToken }, { name: 'x' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'permission_denied' } } });
  });

  it('never takes an API key, and keeps the two listeners apart', async () => {
    expect((await call('GET', api('/keys'), { authorization: `Bearer sk-${'b'.repeat(48)}` })).status).toBe(401);
    const tenant = session('owner');
    const operator = session(null, 'operator');
    // A tenant session's token under the operator cookie's name, and the other way round, name no session of that side.
    const tenantToken = tenant.cookie.split('=')[1]!;
    expect((await call('GET', `${t.edge.adminUrl}/console/api/session`, { cookie: `gw_operator=${tenantToken}` })).status).toBe(401);
    expect((await call('GET', api('/session'), { cookie: `gw_console=${operator.cookie.split('=')[1]}` })).status).toBe(401);
    expect((await call('GET', `${t.edge.adminUrl}/console/api/session`, { cookie: operator.cookie })).body).toMatchObject({ kind: 'operator' });
  });

  it('drops a session the moment accounts broadcasts its end', async () => {
    const { cookie } = session('owner');
    expect((await call('GET', api('/session'), { cookie })).status).toBe(200);
    const hash = sha256(cookie.split('=')[1]!);
    sessions.delete(hash);
    // Still cached: no broadcast yet.
    expect((await call('GET', api('/session'), { cookie })).status).toBe(200);
    t.accounts.broadcast({ sessions: [hash] });
    await t.connection.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await call('GET', api('/session'), { cookie })).status).toBe(401);
  });

  it('signs out on the server: the old cookie is refused afterwards', async () => {
    const signedIn = await call('POST', api('/session'), own(), { email: 'out@example.com', password: 'the right long password' });
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const csrf = (signedIn.body as { csrfToken: string }).csrfToken;
    const out = await call('DELETE', api('/session'), { cookie, ...own(), 'x-csrf-token': csrf });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^gw_console=; Max-Age=0; Path=\/console/);
    expect((await call('GET', api('/session'), { cookie })).status).toBe(401);
  });

  it('lets the operator console in without the admin token but signs in only with it', async () => {
    expect((await call('GET', `${t.edge.adminUrl}/admin/tenants/acme`)).status).toBe(401);
    const wrong = await call('POST', `${t.edge.adminUrl}/console/api/session`, { origin: t.edge.adminUrl }, { token: 'guess' });
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: 'authentication_failed', param: 'token' } } });
    const foreign = await call('POST', `${t.edge.adminUrl}/console/api/session`, { origin: 'https://evil.example' }, { token: 'admin-secret' });
    expect(foreign.status).toBe(403);
  });

  it('serves the single page with its side and a strict CSP, and hashed assets for a year', async () => {
    const page = await call('GET', `${t.edge.url}/console/keys`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.text).toContain('content="tenant"');
    const operatorPage = await call('GET', `${t.edge.adminUrl}/console/`);
    expect(operatorPage.text).toContain('content="operator"');
    const asset = await call('GET', `${t.edge.url}/console/assets/main-abc12345.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect([403, 404]).toContain((await call('GET', `${t.edge.url}/console/assets/..%2f..%2fpackage.json`)).status);
    expect(await call('GET', api('/nothing-here'))).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  });
});
