/**
 * A client's x-request-id is never an internal key: through the running gateway, two or more tenants
 * sending the same id cannot read each other's bodies, share or release each other's holds, merge
 * their usage records, or steer where objects are stored.
 */
import { formatMicros, UsageRequests } from '@gateway/contracts';
import { watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminClient, baseUrl, bearer, createTenantWithKey, e2eEnv, http, uniqueSlug, type HttpResult, type TenantWithKey } from './support/gateway';
import { chargeOf, errorCode, eventually, storedBalance, withSql } from './support/billing-fixtures';
import { runCli } from './support/cli-runner';

const CHAT_URL = () => `${baseUrl()}/oaic/v1/chat/completions`;

function chatAs(tenant: TenantWithKey, clientRequestId: string, json: Record<string, unknown>): Promise<HttpResult> {
  return http('POST', CHAT_URL(), { headers: { ...bearer(tenant.key), 'x-request-id': clientRequestId }, json });
}

const contentOf = (result: HttpResult) => (result.body as { choices?: Array<{ message?: { content?: string } }> }).choices?.[0]?.message?.content ?? '';
const serverIdOf = (result: HttpResult) => String(result.headers['x-request-id']);

/** A pay-as-you-go tenant holding exactly `micros`. */
async function tenantWithMicros(label: string, micros: bigint, options: Parameters<typeof createTenantWithKey>[0] = {}): Promise<TenantWithKey> {
  const tenant = await createTenantWithKey({ ...options, label, balance: null });
  await adminClient().topup({ tenant: tenant.slug, amount: formatMicros(micros) });
  return tenant;
}

describe('client request ids are only echoed, never internal keys', () => {
  it('(a) a body over the claim-check size sent under another tenant’s request id is answered from its own prompt', async () => {
    const [alpha, bravo] = await Promise.all([createTenantWithKey({ label: 'ida' }), createTenantWithKey({ label: 'idb' })]);
    // Over 512 KB, so both bodies travel by claim check; the echo of the last user text shows whose prompt was read.
    const padding = 'the quick brown fox jumps over the lazy dog '.repeat(Math.ceil((600 * 1024) / 44));
    const ask = (tenant: TenantWithKey, shared: string, marker: string) =>
      chatAs(tenant, shared, {
        model: 'sandbox-gpt',
        max_tokens: 8,
        messages: [
          { role: 'system', content: padding },
          { role: 'user', content: `${marker} asks` },
        ],
      });
    for (let round = 0; round < 6; round++) {
      const shared = `victim-${randomUUID()}`;
      const [a, b] = await Promise.all([ask(alpha, shared, `alpha${round}`), ask(bravo, shared, `bravo${round}`)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(contentOf(a)).toContain(`alpha${round}`);
      expect(contentOf(a)).not.toContain('bravo');
      expect(contentOf(b)).toContain(`bravo${round}`);
      expect(contentOf(b)).not.toContain('alpha');
      expect(serverIdOf(a)).not.toBe(serverIdOf(b));
      expect(a.headers['x-client-request-id']).toBe(shared);
    }
  }, 60_000);

  it('(b) 30 concurrent requests under one fixed id are each reserved for: no more is served than the balance covers', async () => {
    // 400 output tokens reserve about 600 micro-units: 1,000 covers one request in flight at a time.
    const funded = 1000n;
    const tenant = await tenantWithMicros('idfix', funded);
    const fixed = `fixed-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        chatAs(tenant, fixed, { model: 'sandbox-gpt-slow', max_tokens: 400, messages: [{ role: 'user', content: 'One fixed id, many requests.' }] }),
      ),
    );
    const served = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(served.length + refused.length).toBe(30);
    expect(served.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => errorCode(r) === 'insufficient_quota')).toBe(true);

    // Each served request is its own request: its own id, its own charge; together within the balance.
    const ids = served.map(serverIdOf);
    expect(new Set(ids).size).toBe(served.length);
    const charges = await Promise.all(ids.map((id) => chargeOf(id)));
    const total = charges.reduce((sum, c) => sum + c.charged, 0n);
    expect(charges.every((c) => c.charged > 0n)).toBe(true);
    expect(total).toBeLessThanOrEqual(funded);
    const settled = await eventually(
      'balance settles',
      () => storedBalance(tenant.slug),
      (s) => s.balance === funded - total,
    );
    expect(settled.ledger).toBe(settled.balance);
  }, 60_000);

  it('(c) five sequential requests under one fixed id leave five usage rows and five charges', async () => {
    const tenant = await createTenantWithKey({ label: 'idseq' });
    const fixed = `seq-${randomUUID()}`;
    const results: HttpResult[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await chatAs(tenant, fixed, { model: 'sandbox-gpt', max_tokens: 16, messages: [{ role: 'user', content: `request number ${i}` }] });
      expect(result.status).toBe(200);
      results.push(result);
    }
    const ids = results.map(serverIdOf);
    expect(new Set(ids).size).toBe(5);
    expect(ids).not.toContain(fixed);
    const charges = await Promise.all(ids.map((id) => chargeOf(id)));
    expect(charges.every((c) => c.charged > 0n)).toBe(true);
    const rows = await eventually(
      'five usage rows',
      () =>
        withSql((sql) => sql.query<{ request_id: string }>('SELECT request_id FROM usage_records WHERE client_request_id = $1', [fixed])).then((r) => r.rows),
      (found) => found.length >= 5,
    );
    expect(rows.map((r) => r.request_id).sort()).toEqual([...ids].sort());
    expect(results.every((r) => r.headers['x-client-request-id'] === fixed)).toBe(true);

    // The operator finds them by the id the client logged.
    const cli = await runCli(['usage', 'requests', '--tenant', tenant.slug, '--client-request-id', fixed, '--json']);
    expect(cli).toMatchObject({ code: 0 });
    const listed = UsageRequests.parse(JSON.parse(cli.stdout));
    expect(listed.rows.map((r) => r.requestId).sort()).toEqual([...ids].sort());
    expect(listed.rows.every((r) => r.clientRequestId === fixed && BigInt(r.costMicros) > 0n)).toBe(true);
  }, 60_000);

  it('(d) another tenant’s failing requests under an in-flight id leave its hold alone, and it is billed normally', async () => {
    const slug = uniqueSlug('idslow');
    const slowModel = `slow-${slug}`;
    const provider = `prov-${slug}`;
    // Too little for a lease (16 requests' worth), so the request holds its own reservation in Redis.
    const funded = 5000n;
    const victim = await tenantWithMicros('idvictim', funded, {
      models: [slowModel],
      catalog: {
        providers: [{ id: provider, protocol: 'openai', baseUrl: `${e2eEnv().GW_E2E_SANDBOX_URL}/openai/v1`, apiKey: 'sk-sandbox-upstream' }],
        models: [
          {
            id: slowModel,
            displayName: 'Slow answer',
            capability: 'chat',
            public: false,
            provider,
            upstreamModel: 'sandbox-gpt@latency=2500',
            createdAt: '2025-01-01T00:00:00Z',
            prices: { inputPerMTok: '0.50', outputPerMTok: '1.50' },
          },
        ],
      },
    });
    const intruder = await createTenantWithKey({ label: 'idintruder' });
    const shared = `inflight-${randomUUID()}`;

    const pending = chatAs(victim, shared, { model: slowModel, max_tokens: 400, messages: [{ role: 'user', content: 'Take your time.' }] });
    await sleep(500);
    const refused = await Promise.all(
      Array.from({ length: 5 }, () =>
        chatAs(intruder, shared, { model: 'sandbox-gpt-broken', max_tokens: 400, messages: [{ role: 'user', content: 'fail on purpose' }] }),
      ),
    );
    expect(refused.every((r) => r.status >= 500)).toBe(true);

    const answer = await pending;
    expect(answer.status).toBe(200);
    const { charged } = await chargeOf(serverIdOf(answer));
    expect(charged).toBeGreaterThan(0n);
    const settled = await eventually(
      'victim balance settles',
      () => storedBalance(victim.slug),
      (s) => s.balance === funded - charged,
    );
    expect(settled.ledger).toBe(settled.balance);
    const intruderCharges = await withSql((sql) =>
      sql.query<{ total: string | null }>(
        `SELECT sum(l.amount_micros) AS total FROM ledger_entries l JOIN tenants t ON t.id = l.tenant_id WHERE t.slug = $1 AND l.kind <> 'topup'`,
        [intruder.slug],
      ),
    );
    expect(BigInt(intruderCharges.rows[0]?.total ?? 0)).toBe(0n);
  }, 60_000);

  it('(e) a path-like x-request-id on audio speech writes nothing outside the speech/ prefix of storage', async () => {
    const tenant = await createTenantWithKey({ label: 'idspeech' });
    const root = e2eEnv().GW_E2E_STORAGE_DIR;
    // Objects are deleted once streamed out, so what was written where is watched as it happens.
    const created: string[] = [];
    const watcher = watch(root, (_event, name) => {
      if (name) created.push(String(name));
    });
    let result: HttpResult;
    try {
      result = await http('POST', `${baseUrl()}/oaic/v1/audio/speech`, {
        headers: { ...bearer(tenant.key), 'x-request-id': '../speech-sibling-probe' },
        json: { model: 'sandbox-tts', input: 'Where does this land?', voice: 'alloy', response_format: 'wav' },
      });
      await sleep(300);
    } finally {
      watcher.close();
    }
    expect(result.status).toBe(200);
    expect(created.filter((name) => name !== 'speech' && name !== 'uploads')).toEqual([]);
    const everything = await readdir(root, { recursive: true });
    expect(everything.filter((name) => String(name).includes('probe'))).toEqual([]);
    expect(result.headers['x-client-request-id']).toBe('../speech-sibling-probe');
  });
});
