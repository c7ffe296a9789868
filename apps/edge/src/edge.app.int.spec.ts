import { SERVICES, SUBJECTS } from '@gateway/contracts';
import { DeadLetterStream } from '@gateway/platform';
import { buildModels, hashOf } from './testing/fake-accounts';
import { startTestEdge, type TestEdge } from './testing/start-test-edge';

const MSGC = { 'msgc-version': '2023-06-01' };

describe('edge over real NATS and HTTP', () => {
  let t: TestEdge;
  let key: string;

  beforeAll(async () => {
    t = await startTestEdge();
    key = t.accounts.addKey('tenant-a').key;
    t.accounts.models.set('tenant-a', buildModels(3));
  });
  afterAll(() => t.stop());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(t.edge.url + path, { headers });

  describe('auth (spec section 5)', () => {
    it('accepts a bearer key on an oaic route', async () => {
      const res = await get('/oaic/v1/models', { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(3);
    });

    it('refuses x-api-key on a bearer route, naming the Authorization header', async () => {
      const res = await get('/oaic/v1/models', { 'x-api-key': key });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { message: string; type: string; code: string } };
      expect(body.error.type).toBe('authentication_error');
      expect(body.error.code).toBe('invalid_api_key');
      expect(body.error.message).toContain('Authorization: Bearer');
    });

    it('refuses bearer on an msgc route, naming x-api-key', async () => {
      const res = await get('/msgc/v1/models', { authorization: `Bearer ${key}`, ...MSGC });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { type: string; error: { type: string; message: string } };
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('authentication_error');
      expect(body.error.message).toContain('x-api-key');
    });

    it('checks the key before msgc-version: neither, or an unknown key without it → 401', async () => {
      for (const headers of [{}, { 'x-api-key': 'sk-unknown' }] as Record<string, string>[]) {
        const res = await get('/msgc/v1/models', headers);
        expect(res.status).toBe(401);
        expect(((await res.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
      }
    });

    it('with a good key, a missing or unknown msgc-version → 400 naming it', async () => {
      for (const headers of [{ 'x-api-key': key }, { 'x-api-key': key, 'msgc-version': '2024-01-01' }] as Record<string, string>[]) {
        const res = await get('/msgc/v1/models', headers);
        expect(res.status).toBe(400);
        const body = (await res.json()) as { type: string; error: { type: string; message: string } };
        expect(body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('msgc-version') } });
      }
    });

    it('accepts x-api-key with msgc-version and ignores the vendor SDK headers', async () => {
      const res = await get('/msgc/v1/models', { 'x-api-key': key, ...MSGC, 'anthropic-version': '2023-06-01' });
      expect(res.status).toBe(200);
      const ok = await get('/oaic/v1/models', { authorization: `Bearer ${key}`, 'x-goog-api-key': 'other' });
      expect(ok.status).toBe(200);
    });

    it('refuses an unknown key with 401 and remembers it briefly', async () => {
      const before = t.accounts.count(SUBJECTS.accounts.keys.resolve);
      for (let i = 0; i < 3; i++) {
        const res = await get('/oaic/v1/models', { authorization: 'Bearer sk-unknown-key' });
        expect(res.status).toBe(401);
      }
      expect(t.accounts.count(SUBJECTS.accounts.keys.resolve) - before).toBe(1);
    });

    it('refuses an expired key with 401', async () => {
      const expired = t.accounts.addKey('tenant-a', { expiresAt: new Date(Date.now() - 1000).toISOString() }).key;
      const res = await get('/oaic/v1/models', { authorization: `Bearer ${expired}` });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
    });

    it('resolves a key once for 200 concurrent requests', async () => {
      const fresh = t.accounts.addKey('tenant-a').key;
      const before = t.accounts.count(SUBJECTS.accounts.keys.resolve);
      const statuses = await Promise.all(Array.from({ length: 200 }, () => get('/oaic/v1/models', { authorization: `Bearer ${fresh}` }).then((r) => r.status)));
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(t.accounts.count(SUBJECTS.accounts.keys.resolve) - before).toBe(1);
    });

    it('drops a cached key on an invalidation broadcast', async () => {
      const { key: victim } = t.accounts.addKey('tenant-a');
      expect((await get('/oaic/v1/models', { authorization: `Bearer ${victim}` })).status).toBe(200);
      const victimHash = hashOf(victim);
      t.accounts.keys.delete(victimHash);
      // Still cached: no broadcast yet.
      expect((await get('/oaic/v1/models', { authorization: `Bearer ${victim}` })).status).toBe(200);
      t.accounts.broadcast({ keyHashes: [victimHash] });
      await t.connection.flush();
      await waitFor(async () => (await get('/oaic/v1/models', { authorization: `Bearer ${victim}` })).status === 401);
    });

    it('drops every key of a tenant named by an invalidation', async () => {
      const { key: k1 } = t.accounts.addKey('tenant-z');
      t.accounts.models.set('tenant-z', buildModels(1));
      expect((await get('/oaic/v1/models', { authorization: `Bearer ${k1}` })).status).toBe(200);
      for (const [hash, context] of t.accounts.keys) if (context.tenantId === 'tenant-z') t.accounts.keys.delete(hash);
      t.accounts.broadcast({ tenantIds: ['tenant-z'] });
      await waitFor(async () => (await get('/oaic/v1/models', { authorization: `Bearer ${k1}` })).status === 401);
    });
  });

  describe('unknown routes → 404 in the dialect of their prefix', () => {
    const bearer = () => ({ authorization: `Bearer ${key}` });
    it.each([
      ['/v1/models', { error: { type: 'not_found_error', code: 'not_found', param: null, message: expect.any(String) } }],
      ['/oaic/v1/nope', { error: { type: 'not_found_error' } }],
      ['/msgc/v1/nope', { type: 'error', error: { type: 'not_found_error' } }],
      ['/genc/v1/models/x:generateContent', { error: { code: 404, status: 'NOT_FOUND' } }],
      ['/genc/v1beta/nope', { error: { code: 404, status: 'NOT_FOUND' } }],
      ['/v1beta/models/x:generateContent', { error: { type: 'not_found_error' } }],
      ['/dsc/v1/nope', { code: 'NotFound', request_id: expect.any(String) }],
      ['/nativemedia/v1/nope', { code: 1203, request_id: expect.any(String) }],
      ['/music/nope', { code: 404, msg: expect.any(String), data: null }],
      ['/v1/chatroom/nope', { success: false, error: { code: 'not_found' } }],
      ['/elsewhere', { error: { type: 'not_found_error' } }],
    ])('%s', async (path, shape) => {
      const res = await get(path, bearer());
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject(shape);
    });
  });

  describe('request ids, HTTP-layer errors, docs, health', () => {
    it('always makes its own x-request-id; a valid client id only comes back as x-client-request-id', async () => {
      const given = await get('/oaic/v1/models', { authorization: `Bearer ${key}`, 'x-request-id': 'req-abc' });
      expect(given.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(given.headers.get('x-client-request-id')).toBe('req-abc');
      const again = await get('/oaic/v1/models', { authorization: `Bearer ${key}`, 'x-request-id': 'req-abc' });
      expect(again.headers.get('x-request-id')).not.toBe(given.headers.get('x-request-id'));
      const made = await get('/oaic/v1/models', { authorization: `Bearer ${key}` });
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(made.headers.get('x-client-request-id')).toBeNull();
    });

    it('ignores an invalid client id without failing the request, and echoes it on errors too', async () => {
      const long = await get('/oaic/v1/models', { authorization: `Bearer ${key}`, 'x-request-id': 'x'.repeat(129) });
      expect(long.status).toBe(200);
      expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(long.headers.get('x-client-request-id')).toBeNull();
      const refused = await get('/oaic/v1/models', { authorization: 'Bearer sk-nope', 'x-request-id': '../probe' });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(refused.headers.get('x-client-request-id')).toBe('../probe');
    });

    it('answers a malformed query in the dialect, naming the field', async () => {
      const res = await get('/oaic/v1/models?limit=zero', { authorization: `Bearer ${key}` });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe('limit');
    });

    it('serves the route index and the OpenAPI document without auth', async () => {
      const index = (await (await get('/docs/api-endpoints.json')).json()) as { routes: { path: string }[]; planned: unknown[] };
      expect(index.routes.map((r) => r.path)).toContain('/oaic/v1/models');
      expect(index.planned).toEqual([]);
      const openapi = (await (await get('/docs/openapi.json')).json()) as { openapi: string; paths: Record<string, unknown> };
      expect(openapi.openapi).toBe('3.1.0');
      expect(Object.keys(openapi.paths)).toContain('/msgc/v1/models');
    });

    it('healthz is always 200; readyz is 503 naming silent services, then 200 once all answer', async () => {
      expect((await get('/healthz')).status).toBe(200);
      const down = await get('/readyz');
      expect(down.status).toBe(503);
      expect(((await down.json()) as { missing: string[] }).missing).toEqual([...SERVICES]);
      t.accounts.answerHealth(SERVICES);
      await t.connection.flush();
      const up = await get('/readyz');
      expect(up.status).toBe(200);
      expect(await up.json()).toMatchObject({ status: 'ready', nats: true, redis: true, missing: [] });
    });

    it('counts requests by route id in /metrics', async () => {
      const text = await (await get('/metrics')).text();
      expect(text).toMatch(/gateway_http_requests_total\{route="oaic.models.list",status="200"\} \d+/);
      expect(text).toMatch(/gateway_http_requests_total\{route="oaic.models.list",status="401"\} \d+/);
    });

    it('reports the records held in the dead-letter stream per consumer in /metrics', async () => {
      const letters = new DeadLetterStream(t.connection, t.prefix);
      await letters.ensure();
      const letter = { source: 'test', error: 'invalid byte sequence', deliveries: 5, at: new Date().toISOString(), payload: '{}' };
      await letters.add({ ...letter, consumer: 'usage' });
      await letters.add({ ...letter, consumer: 'usage' });
      await letters.add({ ...letter, consumer: 'ledger' });
      const text = await (await get('/metrics')).text();
      expect(text).toMatch(/gateway_dead_letters\{consumer="usage"\} 2/);
      expect(text).toMatch(/gateway_dead_letters\{consumer="ledger"\} 1/);
      const jsm = await t.connection.jetstreamManager();
      await jsm.streams.delete(letters.names.stream);
    });
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 1000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
