/**
 * How media tasks are polled: a schedule learned from the times of tasks like it (fewer polls once a
 * history exists), and Kling-style vendor callbacks (a hint: the task is read from the upstream, so a
 * forged, repeated or late callback changes nothing and charges nothing; one that never comes is covered
 * by the safety-net poll, MEDIA_CALLBACK_POLL_MS = 1500 in this stack).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { chargeOf, storedBalance, withSql } from './support/billing-fixtures';
import { baseUrl, createTenantWithKey, http, uniqueSlug, type TenantWithKey } from './support/gateway';
import { nativeEnded, pollTask, post } from './support/media-fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PRICE_MICROS = 20_000n;

/** A tenant with private Kling-style image models, each `[upstream model, callbacks on]`. */
async function tenantWith(models: Record<string, [string, boolean]>): Promise<TenantWithKey & { ids: Record<string, string> }> {
  const ids = Object.fromEntries(Object.keys(models).map((name) => [name, `${name}-${uniqueSlug('mp')}`]));
  const tenant = await createTenantWithKey({
    label: 'media-polls',
    models: Object.values(ids),
    catalog: {
      models: Object.entries(models).map(([name, [upstreamModel, callbacks]]) => ({
        id: ids[name]!,
        displayName: `Polls ${name}`,
        capability: 'image' as const,
        public: false,
        provider: 'sandbox-kling',
        upstreamModel,
        callbacks,
        prices: { perImage: '0.02' },
      })),
    },
  });
  return { ...tenant, ids };
}

async function create(key: string, model: string): Promise<string> {
  const created = await post(key, '/nativemedia/v1/images/generations', { model_name: model, prompt: 'a lantern' });
  expect(created.status).toBe(200);
  return (created.body as Json).data.task_id as string;
}

async function untilEnded(key: string, id: string): Promise<void> {
  await pollTask(key, `/nativemedia/v1/images/generations/${id}`, nativeEnded, 30_000);
}

interface TaskRow {
  state: string;
  polls: number;
  elapsed_ms: number;
  finished_at: Date | null;
}

const rowOf = (id: string) =>
  withSql(async (sql) => {
    const { rows } = await sql.query<TaskRow>(
      `SELECT state, polls, finished_at, (EXTRACT(EPOCH FROM (finished_at - created_at)) * 1000)::float8 AS elapsed_ms FROM media_tasks WHERE id = $1`,
      [id],
    );
    return rows[0]!;
  });

const ledgerKinds = (id: string) =>
  withSql(async (sql) =>
    (await sql.query<{ kind: string }>('SELECT kind FROM ledger_entries WHERE request_id = $1 ORDER BY id', [id])).rows.map((r) => r.kind),
  );

const callback = (token: string, body: unknown = { task_status: 'succeed' }) => http('POST', `${baseUrl()}/media/callbacks/${token}`, { json: body });

describe('media polls', () => {
  it('polls less once tasks like it have ended: the first poll waits for the earliest completions', async () => {
    const tenant = await tenantWith({ learned: ['sandbox-kling-image@task=2500', false] });
    const model = tenant.ids.learned!;
    const batch = async () => {
      const ids = await Promise.all(Array.from({ length: 4 }, () => create(tenant.key, model)));
      await Promise.all(ids.map((id) => untilEnded(tenant.key, id)));
      const rows = await Promise.all(ids.map(rowOf));
      expect(rows.every((r) => r.state === 'succeeded')).toBe(true);
      return rows.reduce((sum, r) => sum + r.polls, 0) / rows.length;
    };
    // Cold: every poll interval (200 ms here) until the 2.5 s task ends.
    const cold = await batch();
    await sleep(1100);
    const learned = await batch();
    expect(cold).toBeGreaterThanOrEqual(4);
    expect(learned).toBeLessThanOrEqual(cold / 2);
  });

  it('ends a task on its callback, long before the safety-net poll, and charges it once', async () => {
    const tenant = await tenantWith({ cb: ['sandbox-kling-image@task=300,callback=duplicate', true] });
    const before = await storedBalance(tenant.slug);
    const id = await create(tenant.key, tenant.ids.cb!);
    await untilEnded(tenant.key, id);
    const row = await rowOf(id);
    expect(row.state).toBe('succeeded');
    expect(row.elapsed_ms).toBeLessThan(1400);
    expect((await chargeOf(id)).charged).toBe(PRICE_MICROS);
    await sleep(300);
    expect(await ledgerKinds(id)).toEqual(['reserve', 'settle']);
    expect((await storedBalance(tenant.slug)).balance).toBe(before.balance - PRICE_MICROS);
  });

  it('ends a task whose callback never comes through the safety-net poll', async () => {
    const tenant = await tenantWith({ silent: ['sandbox-kling-image@task=300,callback=none', true] });
    const id = await create(tenant.key, tenant.ids.silent!);
    await untilEnded(tenant.key, id);
    const row = await rowOf(id);
    expect(row.state).toBe('succeeded');
    // Not polled every 200 ms: the first poll waited for the safety net.
    expect(row.elapsed_ms).toBeGreaterThanOrEqual(1400);
    expect(row.polls).toBe(0);
    expect((await chargeOf(id)).charged).toBe(PRICE_MICROS);
  });

  it('a late callback after the task ended changes nothing and charges nothing', async () => {
    const tenant = await tenantWith({ late: ['sandbox-kling-image@task=300,callback=late', true] });
    const id = await create(tenant.key, tenant.ids.late!);
    await untilEnded(tenant.key, id);
    const ended = await rowOf(id);
    const balance = await storedBalance(tenant.slug);
    // The sandbox calls again a second after the end.
    await sleep(1500);
    expect(await rowOf(id)).toEqual(ended);
    expect(await ledgerKinds(id)).toEqual(['reserve', 'settle']);
    expect((await storedBalance(tenant.slug)).balance).toBe(balance.balance);
  });

  it('a forged callback is a 404 without a key, and the task goes on as the upstream says', async () => {
    const tenant = await tenantWith({ slow: ['sandbox-kling-image@task=3000', true] });
    const before = await storedBalance(tenant.slug);
    const id = await create(tenant.key, tenant.ids.slow!);
    const forged = await callback(`${id}.${'A'.repeat(43)}`);
    expect(forged.status).toBe(404);
    expect(forged.body).toMatchObject({ error: { message: expect.stringContaining('callback URL') } });
    expect((await callback('not-a-token')).status).toBe(404);
    const tooLarge = await callback(`${id}.${'A'.repeat(43)}`, { blob: 'x'.repeat(70 * 1024) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.text).toContain('MEDIA_CALLBACK_MAX_BYTES');
    const row = await rowOf(id);
    expect(row.state).not.toBe('succeeded');
    expect(row.polls).toBe(0);
    expect(await ledgerKinds(id)).toEqual(['reserve']);
    await untilEnded(tenant.key, id);
    expect((await chargeOf(id)).charged).toBe(PRICE_MICROS);
    expect((await storedBalance(tenant.slug)).balance).toBe(before.balance - PRICE_MICROS);
  });
});
