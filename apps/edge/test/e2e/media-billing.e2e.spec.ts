/**
 * Media task billing through the running gateway: a completed task is charged what it produced, on a
 * payg balance or as one request of a plan; a task that fails after it was accepted leaves the balance
 * where it was (hold released, ledger summing to zero); a balance that cannot cover the hold is a 429 in
 * the family's dialect before any upstream call; and a result outlives its upstream's temporary URL.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { chargeOf, eventually, storedBalance, withSql } from './support/billing-fixtures';
import { createTenantWithKey, e2eEnv, uniqueSlug, type TenantWithKey } from './support/gateway';
import { dscEnded, fetchLink, get, isMp4, pollTask, post } from './support/media-fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sandbox = () => e2eEnv().GW_E2E_SANDBOX_URL;

/** A tenant with private DashScope video models whose sandbox upstream is driven by `controls`. */
async function tenantWithModels(
  label: string,
  models: Record<string, string>,
  balance = '100.00',
): Promise<TenantWithKey & { models: Record<string, string> }> {
  const ids = Object.fromEntries(Object.keys(models).map((name) => [name, `${name}-${uniqueSlug('mm')}`]));
  const tenant = await createTenantWithKey({
    label,
    balance,
    models: Object.values(ids),
    catalog: {
      models: Object.entries(models).map(([name, upstreamModel]) => ({
        id: ids[name]!,
        displayName: `Media ${name}`,
        capability: 'video' as const,
        public: false,
        provider: 'sandbox-dashscope',
        upstreamModel,
        prices: { perSecond: '0.10' },
      })),
    },
  });
  return { ...tenant, models: ids };
}

const createDsc = (key: string, model: string, duration = 5) =>
  post(key, '/dsc/v1/services/aigc/video-generation/video-synthesis', { model, input: { prompt: 'billing' }, parameters: { duration } });

describe('media task billing', () => {
  it('charges a completed payg task perSecond × seconds produced, once', async () => {
    const tenant = await createTenantWithKey({ label: 'media-payg' });
    const created = await post(tenant.key, '/oaic/v1/videos', { model: 'sandbox-sora', prompt: 'paid', seconds: '4' });
    expect(created.status).toBe(200);
    const id = (created.body as Json).id as string;
    await pollTask(tenant.key, `/oaic/v1/videos/${id}`, (b) => b.status !== 'processing');
    const { charged } = await chargeOf(id);
    expect(charged).toBe(400_000n);
    const kinds = await withSql((sql) => sql.query<{ kind: string }>('SELECT kind FROM ledger_entries WHERE request_id = $1 ORDER BY id', [id]));
    expect(kinds.rows.map((r) => r.kind)).toEqual(['reserve', 'settle']);
  });

  it('counts tasks as requests on a plan key, and refuses the one past the quota with 429', async () => {
    const plan = uniqueSlug('media-plan');
    const tenant = await createTenantWithKey({
      label: 'media-plan',
      billing: 'plan',
      plan,
      expires: '2099-01-01T00:00:00Z',
      catalog: { plans: [{ name: plan, quota: { requests: 2 }, period: 3600 }] },
    });
    expect(tenant.key.startsWith('sk-plan-')).toBe(true);
    const body = { model_name: 'sandbox-kling-image', prompt: 'counted' };
    expect((await post(tenant.key, '/nativemedia/v1/images/generations', body)).status).toBe(200);
    expect((await post(tenant.key, '/nativemedia/v1/images/generations', body)).status).toBe(200);
    const refused = await post(tenant.key, '/nativemedia/v1/images/generations', body);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 1102 });
  });

  it('a task that fails after it was accepted leaves the balance where it was: hold released, ledger summing to zero', async () => {
    const tenant = await tenantWithModels('media-fail', { failing: 'wan-video@task=300,taskfail=mid' });
    const before = await storedBalance(tenant.slug);
    const created = await createDsc(tenant.key, tenant.models.failing!);
    expect(created.status).toBe(200);
    const id = (created.body as Json).output.task_id as string;
    const seen = await pollTask(tenant.key, `/dsc/v1/tasks/${id}`, dscEnded);
    const done = (seen.at(-1)!.body as Json).output;
    expect(done).toMatchObject({ task_status: 'FAILED' });
    expect(done.message).toContain('taskfail=mid');
    const { charged } = await chargeOf(id);
    expect(charged).toBe(0n);
    const kinds = await withSql((sql) => sql.query<{ kind: string }>('SELECT kind FROM ledger_entries WHERE request_id = $1 ORDER BY id', [id]));
    expect(kinds.rows.map((r) => r.kind)).toEqual(['reserve', 'release']);
    await eventually(
      'the balance back where it was',
      () => storedBalance(tenant.slug),
      (b) => b.balance === before.balance && b.ledger === before.ledger,
    );
  });

  it('an upstream refusal at submit is a 4xx at once and charges nothing', async () => {
    const tenant = await tenantWithModels('media-refused', { refused: 'wan-video@taskfail=submit' });
    const refused = await createDsc(tenant.key, tenant.models.refused!);
    expect(refused.status).toBe(400);
    expect((refused.body as Json).message).toContain('taskfail=submit');
    const rows = await withSql((sql) =>
      sql.query<{ n: string }>('SELECT count(*) AS n FROM ledger_entries l JOIN tenants t ON t.id = l.tenant_id WHERE t.slug = $1 AND l.kind = $2', [
        tenant.slug,
        'settle',
      ]),
    );
    expect(rows.rows[0]!.n).toBe('0');
    await eventually(
      'the hold given back',
      () => storedBalance(tenant.slug),
      (b) => b.balance === 100_000_000n,
    );
  });

  it('insufficient balance is a 429 in each family dialect, before any upstream call', async () => {
    const upstreamKey = `sk-${uniqueSlug('never-called')}`;
    const provider = `dashscope-${uniqueSlug('poor')}`;
    const model = `poor-${uniqueSlug('mm')}`;
    const tenant = await createTenantWithKey({
      label: 'media-poor',
      balance: '0.10',
      models: [model],
      catalog: {
        providers: [{ id: provider, protocol: 'dashscope', baseUrl: `${sandbox()}/dashscope/api/v1`, apiKey: upstreamKey }],
        models: [
          { id: model, displayName: 'Media poor', capability: 'video', public: false, provider, upstreamModel: 'wan-video', prices: { perSecond: '0.10' } },
        ],
      },
    });
    const oaic = await post(tenant.key, '/oaic/v1/videos', { model: 'sandbox-sora', prompt: 'too dear', seconds: '8' });
    expect(oaic.status).toBe(429);
    expect(oaic.body).toMatchObject({ error: { code: 'insufficient_quota' } });
    const dsc = await createDsc(tenant.key, model, 10);
    expect(dsc.status).toBe(429);
    expect(dsc.body).toMatchObject({ code: 'Arrearage' });
    const native = await post(tenant.key, '/nativemedia/v1/videos/text2video', { model_name: 'sandbox-kling', mode: 'pro', prompt: 'too dear', duration: 10 });
    expect(native.status).toBe(429);
    expect(native.body).toMatchObject({ code: 1102 });
    const tasks = await withSql((sql) =>
      sql.query<{ n: string }>('SELECT count(*) AS n FROM media_tasks m JOIN tenants t ON t.id = m.tenant_id WHERE t.slug = $1', [tenant.slug]),
    );
    expect(tasks.rows[0]!.n).toBe('0');
    const stats = (await (await fetch(`${sandbox()}/_sandbox/stats`)).json()) as { authKeys: Record<string, number> };
    expect(stats.authKeys[upstreamKey]).toBeUndefined();
  });

  it('a result still downloads through the gateway after the upstream temporary URL has expired', async () => {
    const tenant = await tenantWithModels('media-expire', { brief: 'wan-video@task=200,expire=1500' });
    const created = await createDsc(tenant.key, tenant.models.brief!);
    const id = (created.body as Json).output.task_id as string;
    const seen = await pollTask(tenant.key, `/dsc/v1/tasks/${id}`, dscEnded);
    const link = (seen.at(-1)!.body as Json).output.video_url as string;
    const upstreamId = await withSql(
      async (sql) => (await sql.query<{ u: string }>('SELECT upstream_task_id AS u FROM media_tasks WHERE id = $1', [id])).rows[0]!.u,
    );
    await sleep(1700);
    const upstream = (await (
      await fetch(`${sandbox()}/dashscope/api/v1/tasks/${upstreamId}`, { headers: { authorization: 'Bearer sk-dashscope-sandbox-upstream' } })
    ).json()) as Json;
    expect((await fetchLink(upstream.output.video_url)).status).toBe(403);
    const file = await fetchLink(link);
    expect(file.status).toBe(200);
    expect(isMp4(file.bytes)).toBe(true);
    const again = await get(tenant.key, `/dsc/v1/tasks/${id}`);
    expect((await fetchLink((again.body as Json).output.video_url)).status).toBe(200);
  });
});
