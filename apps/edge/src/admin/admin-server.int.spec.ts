import { SUBJECTS, type KeyView, type TenantView } from '@gateway/contracts';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { EdgeEnv } from '../config/edge-env';
import { createEdgeApp } from '../edge.app';
import { FakeAccounts } from '../testing/fake-accounts';
import { rawRequest } from '../testing/raw-http';
import { ensureTestSigningSecret, startTestEdge, type TestEdge } from '../testing/start-test-edge';

const TOKEN = 'admin-secret-token';

const tenant: TenantView = { id: randomUUID(), slug: 'acme', name: 'Acme', billing: 'payg', plan: null, expires: null, featureControls: {} };
const keyView: KeyView = {
  id: randomUUID(),
  name: 'default',
  kind: 'payg',
  masked: 'sk-…abcd',
  status: 'active',
  tenant: 'acme',
  project: 'default',
  models: [],
  deny_models: [],
  routes: [],
  expires_at: null,
  created_at: new Date().toISOString(),
};

describe('admin API', () => {
  let t: TestEdge;

  beforeAll(async () => {
    t = await startTestEdge({ ADMIN_TOKEN: TOKEN });
    t.accounts.on(SUBJECTS.accounts.tenants.create, () => tenant);
    t.accounts.on(SUBJECTS.accounts.tenants.get, (p) => {
      if ((p as { slug: string }).slug !== 'acme') throw Object.assign(new Error('No tenant "ghost"'), { code: 'not_found' });
      return tenant;
    });
    t.accounts.on(SUBJECTS.accounts.keys.create, () => ({
      id: keyView.id,
      key: 'sk-plain',
      masked: keyView.masked,
      kind: 'payg',
      tenant: 'acme',
      project: 'default',
    }));
    t.accounts.on(SUBJECTS.accounts.keys.list, () => [keyView]);
    t.accounts.on(SUBJECTS.accounts.keys.regenerate, () => ({
      id: keyView.id,
      key: 'sk-new',
      masked: keyView.masked,
      kind: 'payg',
      tenant: 'acme',
      project: 'default',
    }));
    t.accounts.on(SUBJECTS.accounts.keys.revoke, () => ({ ...keyView, status: 'revoked' }));
    t.accounts.on(SUBJECTS.accounts.subscriptions.set, (p) => ({ tenant: 'acme', kind: 'plan', plan: 'pro', expires: (p as { expires: string }).expires }));
    t.accounts.on(SUBJECTS.accounts.balance.topup, (p) => ({
      tenant: 'acme',
      balance: '10.500000',
      balanceMicros: (p as { amountMicros: string }).amountMicros,
    }));
    t.accounts.on(SUBJECTS.accounts.balance.show, () => ({ tenant: 'acme', balance: '0.000000', balanceMicros: '0' }));
    t.accounts.on(SUBJECTS.accounts.config.apply, () => ({ created: 1, updated: 0, unchanged: 0, changes: ['provider sandbox created'] }));
    await t.connection.flush();
  });
  afterAll(() => t.stop());

  const call = (method: string, path: string, body?: unknown, token: string | null = TOKEN) =>
    fetch(t.edge.adminUrl + path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('refuses requests without the admin token, or with a wrong one', async () => {
    for (const token of [null, 'wrong']) {
      const res = await call('GET', '/admin/healthz', undefined, token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'authentication_failed', message: expect.stringContaining('ADMIN_TOKEN'), param: null } });
    }
    expect(t.accounts.count(SUBJECTS.accounts.tenants.create)).toBe(0);
    expect((await call('POST', '/admin/tenants', { slug: 'acme' }, null)).status).toBe(401);
    expect(t.accounts.count(SUBJECTS.accounts.tenants.create)).toBe(0);
  });

  it('answers health with the token', async () => {
    expect(await (await call('GET', '/admin/healthz')).json()).toEqual({ status: 'ok' });
  });

  it('creates and reads tenants', async () => {
    const created = await call('POST', '/admin/tenants', { slug: 'acme', billing: 'payg' });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual(tenant);
    expect((await call('GET', '/admin/tenants/acme')).status).toBe(200);
    const missing = await call('GET', '/admin/tenants/ghost');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('validates bodies with the contract schemas before any NATS hop', async () => {
    const before = t.accounts.count(SUBJECTS.accounts.tenants.create);
    const res = await call('POST', '/admin/tenants', { slug: 'Bad Slug!' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_request', param: 'slug' } });
    expect(t.accounts.count(SUBJECTS.accounts.tenants.create)).toBe(before);
    const badId = await call('POST', '/admin/keys/not-a-uuid/revoke');
    expect(await badId.json()).toMatchObject({ error: { code: 'invalid_request', param: 'id' } });
  });

  it('manages keys', async () => {
    const created = await call('POST', '/admin/keys', { tenant: 'acme', name: 'ci' });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ key: 'sk-plain' });
    expect(await (await call('GET', '/admin/keys?tenant=acme')).json()).toEqual({ data: [keyView] });
    expect(await (await call('POST', `/admin/keys/${keyView.id}/regenerate`)).json()).toMatchObject({ key: 'sk-new' });
    expect(await (await call('POST', `/admin/keys/${keyView.id}/revoke`)).json()).toMatchObject({ status: 'revoked' });
  });

  it('sets subscriptions and tops up balances in micro-units', async () => {
    const expires = '2030-01-01T00:00:00Z';
    expect(await (await call('PUT', '/admin/subscriptions', { tenant: 'acme', expires })).json()).toMatchObject({ expires });
    const topup = await call('POST', '/admin/balance/topup', { tenant: 'acme', amount: '10.5' });
    expect(await topup.json()).toMatchObject({ balanceMicros: '10500000' });
    expect(t.accounts.calls.get(SUBJECTS.accounts.balance.topup)).toEqual([{ tenant: 'acme', amountMicros: '10500000' }]);
    const bad = await call('POST', '/admin/balance/topup', { tenant: 'acme', amount: '1.2345678' });
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_request', param: 'amount' } });
    expect(await (await call('GET', '/admin/balance?tenant=acme')).json()).toMatchObject({ balanceMicros: '0' });
  });

  it('validates a config and forwards it as written', async () => {
    const config = { providers: [{ id: 'sandbox', protocol: 'openai', baseUrl: 'http://127.0.0.1:9999/v1' }], models: [] };
    const res = await call('POST', '/admin/config/apply', config);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ created: 1 });
    expect(t.accounts.calls.get(SUBJECTS.accounts.config.apply)).toEqual([config]);
    const bad = await call('POST', '/admin/config/apply', { providers: [{ id: 'x', protocol: 'nope', baseUrl: 'http://a' }] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_request', param: 'providers[0].protocol' } });
  });

  it('answers unknown admin routes with 404 and a silent accounts service with 503', async () => {
    expect((await call('GET', '/admin/nope')).status).toBe(404);
    await t.accounts.close();
    const res = await call('GET', '/admin/balance?tenant=acme');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: 'unavailable' } });
  });
});

describe("admin API: operator mistakes and the operator's browser", () => {
  let t: TestEdge;

  beforeAll(async () => {
    t = await startTestEdge({ ADMIN_TOKEN: TOKEN, ADMIN_ALLOWED_HOSTS: 'ops.example.test, Admin.Example.Test' });
    t.accounts.on(SUBJECTS.accounts.balance.topup, () => ({ tenant: 'acme', balance: '1.000000', balanceMicros: '1000000' }));
    await t.connection.flush();
  });
  afterAll(() => t.stop());

  const port = () => new URL(t.edge.adminUrl).port;
  const topup = (headers: Record<string, string>, amount: unknown = '1') =>
    rawRequest(
      t.edge.adminUrl,
      'POST',
      '/admin/balance/topup',
      { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
      JSON.stringify({ tenant: 'acme', amount }),
    );

  it('refuses a Host that is neither loopback nor configured (DNS rebinding), before the token is looked at', async () => {
    for (const host of [`attacker.example:${port()}`, 'attacker.example', `127.0.0.1.attacker.example:${port()}`]) {
      const res = await topup({ host });
      expect(res.status).toBe(421);
      expect(JSON.parse(res.body)).toEqual({ error: { code: 'permission_denied', message: expect.stringContaining('Host header'), param: 'host' } });
    }
    const noToken = await rawRequest(t.edge.adminUrl, 'GET', '/admin/healthz', { host: 'attacker.example' });
    expect(noToken.status).toBe(421);
    expect(t.accounts.count(SUBJECTS.accounts.balance.topup)).toBe(0);
  });

  it('answers loopback names and the configured ones, with or without the port', async () => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`, 'ops.example.test', `admin.example.test:${port()}`]) {
      expect((await topup({ host })).status).toBe(200);
    }
  });

  it('refuses a cross-origin browser request, and accepts one from its own origin', async () => {
    const foreign = await topup({ host: `127.0.0.1:${port()}`, origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: { code: 'permission_denied', param: 'origin' } });
    expect((await topup({ host: `127.0.0.1:${port()}`, origin: 'null' })).status).toBe(403);
    expect((await topup({ host: `127.0.0.1:${port()}`, origin: `http://127.0.0.1:${port()}` })).status).toBe(200);
  });

  it('refuses a top-up above the maximum with 400 naming amount, before any NATS hop', async () => {
    const before = t.accounts.count(SUBJECTS.accounts.balance.topup);
    for (const amount of ['99999999999999999999999', '1000000000.000001', 1e12]) {
      const res = await topup({}, amount);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ error: { code: 'invalid_request', message: expect.stringContaining('maximum'), param: 'amount' } });
    }
    expect(t.accounts.count(SUBJECTS.accounts.balance.topup)).toBe(before);
  });

  it('refuses every call, loopback included, when no ADMIN_TOKEN is configured', async () => {
    const closed = await startTestEdge({});
    try {
      for (const [method, path, authorization] of [
        ['GET', '/admin/healthz', undefined],
        ['POST', '/admin/keys/00000000-0000-4000-8000-000000000000/revoke', undefined],
        ['GET', '/admin/healthz', 'Bearer '],
        ['GET', '/admin/healthz', 'Bearer undefined'],
      ] as const) {
        const res = await fetch(closed.edge.adminUrl + path, { method, headers: authorization ? { authorization } : {} });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ error: { code: 'authentication_failed', message: expect.stringContaining('ADMIN_TOKEN is not set'), param: null } });
      }
      expect(closed.accounts.count(SUBJECTS.accounts.keys.revoke)).toBe(0);
    } finally {
      await closed.stop();
    }
  });

  it('refuses to start with a non-loopback ADMIN_HOST and no ADMIN_TOKEN, naming both', async () => {
    ensureTestSigningSecret();
    const env = EdgeEnv.parse({ NATS_PREFIX: FakeAccounts.prefix(), PORT: '0', ADMIN_PORT: '0', LOG_LEVEL: 'error', ADMIN_HOST: '0.0.0.0' });
    await expect(createEdgeApp(env)).rejects.toThrow(/ADMIN_HOST=0\.0\.0\.0 is not a loopback address and ADMIN_TOKEN is unset/);
  });

  it('refuses a malformed percent-encoding in its own shape, and lets a client still writing its body finish', async () => {
    const { port } = new URL(t.edge.adminUrl);
    const body = JSON.stringify({ note: 'x'.repeat(256 * 1024) });
    const outcome = await new Promise<{ answer: string; error?: string }>((resolve) => {
      let answer = '';
      const socket = net.connect({ host: '127.0.0.1', port: Number(port) }, () => {
        socket.write(
          `POST /admin/keys/%ff/revoke HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
      });
      let sent = false;
      socket.on('data', (chunk) => {
        answer += chunk.toString();
        // The answer came before the body: only now is the body written, in pieces.
        if (sent) return;
        sent = true;
        void (async () => {
          for (let at = 0; at < body.length; at += 16 * 1024) {
            if (!socket.write(body.slice(at, at + 16 * 1024))) await new Promise((r) => socket.once('drain', r));
            await new Promise((r) => setTimeout(r, 5));
          }
          socket.end();
        })();
      });
      socket.on('error', (error) => resolve({ answer, error: (error as NodeJS.ErrnoException).code }));
      socket.on('close', () => resolve({ answer }));
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(outcome.answer.slice(outcome.answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'invalid_request', message: expect.stringContaining('malformed percent-encoding'), param: null },
    });
  });
});
