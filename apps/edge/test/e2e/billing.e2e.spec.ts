/** Billing through the running gateway: prepaid balance under concurrency, plan quotas and expiry, custom prices, rate limits on two edges. */
import { formatMicros } from '@gateway/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminClient, baseUrl, bearer, createTenantWithKey, http, msgcHeaders, uniqueSlug } from './support/gateway';
import { chargeOf, chat, errorCode, eventually, storedBalance, withSql } from './support/billing-fixtures';
import { usageRecord, wavTone } from './support/oaic-fixtures';
import { runCli } from './support/cli-runner';

const PROMPT = 'Please summarise the billing rules of the gateway.';

describe('billing', () => {
  it('serves at most what the balance covers out of 200 concurrent requests, and the ledger recomputes the balance', async () => {
    // The price of one such request, measured on a funded tenant.
    const probe = await createTenantWithKey({ label: 'probe' });
    const first = await chat(probe.key, PROMPT, { maxTokens: 64 });
    expect(first.status).toBe(200);
    const { charged: unit } = await chargeOf(first.requestId);
    expect(unit).toBeGreaterThan(0n);

    const tenant = await createTenantWithKey({ label: 'fifty', balance: null });
    const funded = unit * 50n;
    await adminClient().topup({ tenant: tenant.slug, amount: formatMicros(funded) });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => chat(tenant.key, PROMPT, { maxTokens: 64, base: baseUrl(i % 2 === 0 ? 1 : 2) })));
    const served = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(served.length + refused.length).toBe(200);
    expect(served.length).toBeGreaterThan(0);
    expect(served.length).toBeLessThanOrEqual(50);
    expect(refused.every((r) => errorCode(r) === 'insufficient_quota')).toBe(true);

    // Every hold settled or released, persisted, and the balance row is the ledger's sum.
    const live = async () => BigInt((await adminClient().balance(tenant.slug)).balanceMicros);
    const settled = await eventually(
      'ledger catches up',
      () => storedBalance(tenant.slug),
      (s) => s.balance === funded - unit * BigInt(served.length),
    );
    expect(settled.ledger).toBe(settled.balance);
    expect(await live()).toBe(settled.balance);
    expect(settled.balance).toBeGreaterThanOrEqual(0n);
  }, 60_000);

  it('stops a plan key at its request quota and serves it again after the period resets', async () => {
    const plan = uniqueSlug('plan3');
    // A plan without an expiry would run for one (4 s) period only.
    const tenant = await createTenantWithKey({
      label: 'plan',
      billing: 'plan',
      plan,
      expires: '2099-01-01T00:00:00Z',
      catalog: { plans: [{ name: plan, quota: { requests: 3 }, period: 4 }] },
    });
    const startedMs = await withSql(async (sql) => {
      const { rows } = await sql.query<{ ms: string }>(
        'SELECT (extract(epoch FROM s.created_at) * 1000)::bigint AS ms FROM subscriptions s JOIN tenants t ON t.id = s.tenant_id WHERE t.slug = $1',
        [tenant.slug],
      );
      return Number(rows[0]!.ms);
    });
    const periodMs = 4000;
    const nextPeriod = () => sleep(periodMs - ((Date.now() - startedMs) % periodMs) + 250);
    await nextPeriod();
    // Each answer as its status and error code, and the message of any other failure, so a failed run says why.
    const outcomes = [];
    for (let i = 0; i < 4; i++) {
      const answer = await chat(tenant.key, `plan request ${i}`, { maxTokens: 16 });
      outcomes.push(answer.status === 200 || answer.status === 429 ? `${answer.status} ${errorCode(answer) ?? ''}`.trim() : `${answer.status} ${answer.text}`);
    }
    expect(outcomes).toEqual(['200', '200', '200', '429 insufficient_quota']);
    const refusal = await chat(tenant.key, 'still refused', { maxTokens: 16 });
    expect(errorCode(refusal)).toBe('insufficient_quota');
    await nextPeriod();
    expect((await chat(tenant.key, 'a new period', { maxTokens: 16 })).status).toBe(200);
  }, 30_000);

  it("refuses an expired plan's key with 401", async () => {
    const plan = uniqueSlug('plan-exp');
    // Long enough that the tenant, its key and the first answer come before it on a busy machine.
    const expires = new Date(Date.now() + 8000).toISOString();
    const tenant = await createTenantWithKey({
      label: 'plan-exp',
      billing: 'plan',
      plan,
      expires,
      catalog: { plans: [{ name: plan, quota: { requests: 100 }, period: 3600 }] },
    });
    expect((await chat(tenant.key, 'before expiry', { maxTokens: 16 })).status).toBe(200);
    await sleep(Date.parse(expires) - Date.now() + 200);
    const after = await chat(tenant.key, 'after expiry', { maxTokens: 16 });
    expect(after.status).toBe(401);
    expect(errorCode(after)).toBe('invalid_api_key');
  }, 30_000);

  it("charges a custom subscription's quota at the tenant's price override", async () => {
    const tenant = await createTenantWithKey({ label: 'custom', billing: 'custom', expires: '2099-01-01T00:00:00Z' });
    await adminClient().configureBilling({
      tenant: tenant.slug,
      quota: { credit: '10.00', periodSeconds: 3600 },
      priceOverrides: { 'sandbox-gpt': { inputPerMTok: '7', outputPerMTok: '11' } },
    });
    const answer = await chat(tenant.key, PROMPT);
    expect(answer.status).toBe(200);
    const usage = await usageRecord(answer.requestId);
    const { charged, pool } = await chargeOf(answer.requestId);
    expect(pool).toBe('quota');
    // 7.00 and 11.00 per million tokens are 7 and 11 micros per token; the catalog price would be 0.5 and 1.5.
    expect(charged).toBe(7n * BigInt(usage.prompt_tokens) + 11n * BigInt(usage.completion_tokens));
    const summary = await adminClient().usage({ tenant: tenant.slug, by: 'model' });
    expect(summary.rows).toEqual([expect.objectContaining({ group: 'sandbox-gpt', requests: 1, costMicros: charged.toString() })]);
  }, 30_000);

  it('charges a transcription per second of audio at the model price, reserving the upload length first', async () => {
    const tenant = await createTenantWithKey({ label: 'audio', balance: '1.00' });
    const transcribe = async (format: string, seconds: number) => {
      const form = new FormData();
      form.append('model', 'sandbox-whisper');
      form.append('response_format', format);
      form.append('file', new Blob([new Uint8Array(wavTone(seconds * 1000))], { type: 'audio/wav' }), 'tone.wav');
      const response = await fetch(`${baseUrl()}/oaic/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.key}` },
        body: form,
      });
      expect(response.status).toBe(200);
      return {
        requestId: response.headers.get('x-request-id')!,
        body: format === 'json' ? ((await response.json()) as { usage?: { seconds?: number } }) : await response.text(),
      };
    };
    // sandbox-whisper costs 0.0001 a second: 100 micros.
    const json = await transcribe('json', 3);
    expect((json.body as { usage?: { seconds?: number } }).usage?.seconds).toBe(3);
    expect((await chargeOf(json.requestId)).charged).toBe(300n);
    // A text answer reports no usage: the WAV header's length is charged.
    const text = await transcribe('text', 2);
    expect((await chargeOf(text.requestId)).charged).toBe(200n);
  }, 30_000);

  it('shows usage and the balance with gatewayctl', async () => {
    const tenant = await createTenantWithKey({ label: 'usage', balance: '1.00' });
    const answers = [await chat(tenant.key, PROMPT), await chat(tenant.key, 'and once more')];
    const charges = await Promise.all(answers.map((a) => chargeOf(a.requestId)));
    const total = charges.reduce((sum, c) => sum + c.charged, 0n);
    await usageRecord(answers[1]!.requestId);
    const json = await runCli(['usage', '--tenant', tenant.slug, '--by', 'day', '--json']);
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout) as { by: string; rows: Array<{ group: string; requests: number; costMicros: string }> };
    expect(summary.by).toBe('day');
    expect(summary.rows).toEqual([expect.objectContaining({ group: new Date().toISOString().slice(0, 10), requests: 2, costMicros: total.toString() })]);
    const table = await runCli(['usage', '--tenant', tenant.slug]);
    expect(table.stdout).toMatch(/^model\s+requests\s+prompt_tokens\s+completion_tokens\s+cost\nsandbox-gpt\s+2\s/);
    // The spendable balance: what the tenant's lease still held came back once it closed (2 s after the last request).
    const spendable = async () => JSON.parse((await runCli(['balance', 'show', '--tenant', tenant.slug, '--json'])).stdout) as { balanceMicros: string };
    const balance = await eventually('the lease closes', spendable, (b) => b.balanceMicros === (1_000_000n - total).toString());
    expect(balance).toMatchObject({ balanceMicros: (1_000_000n - total).toString() });
    expect((await runCli(['usage', '--tenant', tenant.slug, '--by', 'week'])).code).toBe(2);
  }, 30_000);

  it('sums usage by project with gatewayctl: a key belongs to the project it was made in', async () => {
    const tenant = await createTenantWithKey({ label: 'projects', balance: '1.00' });
    const project = await runCli(['projects', 'create', '--tenant', tenant.slug, '--name', 'search', '--json']);
    expect(project.code).toBe(0);
    expect(JSON.parse(project.stdout)).toMatchObject({ name: 'search', tenant: tenant.slug, keys: 0 });
    const created = await runCli(['keys', 'create', '--tenant', tenant.slug, '--project', 'search', '--json']);
    const searchKey = JSON.parse(created.stdout) as { key: string; project: string };
    expect(searchKey.project).toBe('search');
    const answers = [await chat(tenant.key, PROMPT), await chat(searchKey.key, PROMPT), await chat(searchKey.key, 'and once more')];
    const charges = await Promise.all(answers.map((a) => chargeOf(a.requestId)));
    await Promise.all(answers.map((a) => usageRecord(a.requestId)));
    const json = await runCli(['usage', '--tenant', tenant.slug, '--by', 'project', '--json']);
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout) as { by: string; rows: Array<{ group: string; requests: number; costMicros: string }> };
    expect(summary.rows.map((row) => [row.group, row.requests, row.costMicros])).toEqual([
      ['default', 1, charges[0]!.charged.toString()],
      ['search', 2, (charges[1]!.charged + charges[2]!.charged).toString()],
    ]);
    const listed = await runCli(['projects', 'list', '--tenant', tenant.slug]);
    expect(listed.stdout).toMatch(/^NAME\s+KEYS\s+MODELS\s+DENIED\s+CREATED\ndefault\s+1\s.*\nsearch\s+1\s/);
    expect((await runCli(['keys', 'create', '--tenant', tenant.slug, '--project', 'Nope'])).code).toBe(2);
  }, 30_000);

  it('holds rate limits across two edge replicas, with Retry-After in each family dialect', async () => {
    const tenant = await createTenantWithKey({ label: 'limited' });
    await adminClient().configureBilling({ tenant: tenant.slug, limits: { rpm: 10 } });
    await sleep(300);
    const calls = Array.from({ length: 30 }, (_, i) => http('GET', `${baseUrl(i % 2 === 0 ? 1 : 2)}/oaic/v1/models`, { headers: bearer(tenant.key) }));
    const results = await Promise.all(calls);
    const limited = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(limited).toHaveLength(20);
    for (const r of limited) {
      expect(errorCode(r)).toBe('rate_limit_exceeded');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    const msgc = await http('GET', `${baseUrl(2)}/msgc/v1/models`, { headers: msgcHeaders(tenant.key) });
    expect(msgc.status).toBe(429);
    expect(msgc.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  }, 20_000);
});
