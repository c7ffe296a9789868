/**
 * `POST /oaic/v1/images/generations` with a native-media (Kling-style) image model, through the running
 * gateway with the openai SDK: the request becomes a native image task, the answer waits for it and comes
 * in OpenAI's images shape — signed gateway links or the stored bytes in Base64, the sandbox's own image
 * either way — billed exactly as a native image task (one charge; an upstream failure leaves the balance
 * as it was; a balance that cannot cover the hold is a 429 before any upstream call).
 */
import { createHmac } from 'node:crypto';
import { connect } from 'nats';
import { APIError } from 'openai';
import { chargeOf, eventually, storedBalance, withSql } from './support/billing-fixtures';
import { createTenantWithKey, e2eEnv, openaiClient, uniqueSlug, type TenantWithKey } from './support/gateway';
import { fetchLink, isPng, post } from './support/media-fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sandbox = () => e2eEnv().GW_E2E_SANDBOX_URL;

/** A bearer for the sandbox's Kling-style API, as its channel mints one: an HS256 JWT issued by the access key. */
function klingToken(accessKey = 'ak-sandbox', secretKey = 'sk-sandbox-kling-secret'): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iss: accessKey, exp: now + 600, nbf: now - 5 })}`;
  return `${unsigned}.${createHmac('sha256', secretKey).update(unsigned).digest('base64url')}`;
}

/** The tenant's image tasks made through the images route, newest last. */
async function imageTasks(slug: string): Promise<Array<{ id: string; upstream: string; state: string }>> {
  return withSql(async (sql) => {
    const { rows } = await sql.query<{ id: string; upstream: string; state: string }>(
      `SELECT m.id, m.upstream_task_id AS upstream, m.state FROM media_tasks m JOIN tenants t ON t.id = m.tenant_id
        WHERE t.slug = $1 AND m.route = 'oaic.images.generations' ORDER BY m.created_at`,
      [slug],
    );
    return rows;
  });
}

/** The images the sandbox made for one of its tasks, fetched from its own (temporary) result URLs. */
async function sandboxImages(upstreamTaskId: string): Promise<Buffer[]> {
  const response = await fetch(`${sandbox()}/kling/v1/images/generations/${upstreamTaskId}`, {
    headers: { authorization: `Bearer ${klingToken()}` },
  });
  const body = (await response.json()) as Json;
  const urls = (body.data.task_result.images as Array<{ url: string }>).map((image) => image.url);
  return Promise.all(urls.map(async (url) => (await fetchLink(url)).bytes));
}

async function ledgerKinds(requestId: string): Promise<string[]> {
  const { rows } = await withSql((sql) => sql.query<{ kind: string }>('SELECT kind FROM ledger_entries WHERE request_id = $1 ORDER BY id', [requestId]));
  return rows.map((r) => r.kind);
}

/** A tenant with a private Kling-style image model whose sandbox upstream is driven by `controls`. */
async function tenantWithImageModel(label: string, controls: string, balance = '100.00', accessKey = 'ak-sandbox') {
  const provider = `kling-${uniqueSlug('img')}`;
  const model = `kling-image-${uniqueSlug('img')}`;
  const tenant = await createTenantWithKey({
    label,
    balance,
    models: [model],
    catalog: {
      providers: [{ id: provider, protocol: 'kling', baseUrl: `${sandbox()}/kling`, apiKey: `${accessKey}:sk-sandbox-kling-secret` }],
      models: [
        {
          id: model,
          displayName: 'Kling image',
          capability: 'image',
          public: false,
          provider,
          upstreamModel: `sandbox-kling-image@${controls}`,
          prices: { perImage: '0.02' },
        },
      ],
    },
  });
  return { ...tenant, model };
}

describe('oaic images with a native-media image model', () => {
  let owner: TenantWithKey;

  beforeAll(async () => {
    owner = await createTenantWithKey({ label: 'media-images' });
  });

  it('answers with signed gateway links to the sandbox image, charged once at perImage', async () => {
    const openai = openaiClient(owner.key);
    // The worker that ends the task broadcasts it, which is what wakes the waiting answer.
    const nats = await connect({ servers: e2eEnv().GW_E2E_NATS_URL });
    const ended: string[] = [];
    nats.subscribe(`${e2eEnv().GW_E2E_NATS_PREFIX}media.task.ended`, {
      callback: (_error, msg) => ended.push((JSON.parse(new TextDecoder().decode(msg.data)) as { taskId: string }).taskId),
    });
    await nats.flush();
    const answer = await openai.images
      .generate({ model: 'sandbox-kling-image', prompt: 'a paper lantern', response_format: 'url' })
      .finally(() => nats.drain());
    expect(Object.keys(answer).sort()).toEqual(['created', 'data']);
    expect(answer.created).toBeGreaterThan(Date.now() / 1000 - 120);
    expect(answer.data).toHaveLength(1);
    const url = answer.data![0]!.url!;
    expect(url.startsWith(`${e2eEnv().GW_E2E_BASE_URL}/files/signed/`)).toBe(true);
    const file = await fetchLink(url);
    expect(file.status).toBe(200);
    expect(file.type).toBe('image/png');
    const [task] = await imageTasks(owner.slug);
    expect(task).toMatchObject({ state: 'succeeded' });
    expect(task!.id).toMatch(/^img_[0-9a-f]{32}$/);
    expect(ended).toContain(task!.id);
    expect(file.bytes.equals((await sandboxImages(task!.upstream))[0]!)).toBe(true);
    expect((await chargeOf(task!.id)).charged).toBe(20_000n);
    expect(await ledgerKinds(task!.id)).toEqual(['reserve', 'settle']);
  });

  it('answers b64_json with the stored bytes, n images charged n × perImage, once', async () => {
    const tenant = await createTenantWithKey({ label: 'media-images-b64' });
    const openai = openaiClient(tenant.key);
    const answer = await openai.images.generate({ model: 'sandbox-kling-image', prompt: 'two lanterns', n: 2, size: '1792x1024', response_format: 'b64_json' });
    expect(answer.data).toHaveLength(2);
    const bytes = answer.data!.map((image) => Buffer.from(image.b64_json!, 'base64'));
    for (const image of bytes) expect(isPng(image)).toBe(true);
    const tasks = await imageTasks(tenant.slug);
    expect(tasks).toHaveLength(1);
    const upstream = await sandboxImages(tasks[0]!.upstream);
    expect(bytes.map((b) => b.toString('base64'))).toEqual(upstream.map((b) => b.toString('base64')));
    expect((await chargeOf(tasks[0]!.id)).charged).toBe(40_000n);
    const { rows } = await withSql((sql) =>
      sql.query<{ n: string }>(
        `SELECT count(*) AS n FROM ledger_entries l JOIN tenants t ON t.id = l.tenant_id WHERE t.slug = $1 AND l.kind IN ('settle', 'overrun')`,
        [tenant.slug],
      ),
    );
    expect(rows[0]!.n).toBe('1');
  });

  it('refuses by name what the native route cannot honour', async () => {
    const refusedField = await post(owner.key, '/oaic/v1/images/generations', { model: 'sandbox-kling-image', prompt: 'p', quality: 'hd' });
    expect(refusedField.status).toBe(400);
    expect(refusedField.body).toMatchObject({ error: { param: 'quality' } });
    const refusedSize = await post(owner.key, '/oaic/v1/images/generations', { model: 'sandbox-kling-image', prompt: 'p', size: '1000x333' });
    expect(refusedSize.status).toBe(400);
    expect(refusedSize.body).toMatchObject({ error: { param: 'size' } });
    const refusedN = await post(owner.key, '/oaic/v1/images/generations', { model: 'sandbox-kling-image', prompt: 'p', n: 10 });
    expect(refusedN.status).toBe(400);
    expect(refusedN.body).toMatchObject({ error: { param: 'n' } });
  });

  it('an upstream failure is an error in the oaic dialect and leaves the balance where it was', async () => {
    const tenant = await tenantWithImageModel('media-images-fail', 'task=300,taskfail=mid');
    const before = await storedBalance(tenant.slug);
    const failure = await openaiClient(tenant.key)
      .images.generate({ model: tenant.model, prompt: 'doomed' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).status).toBe(502);
    expect((failure as APIError).message).toContain('taskfail=mid');
    const [task] = await imageTasks(tenant.slug);
    expect(task).toMatchObject({ state: 'failed' });
    expect((await chargeOf(task!.id)).charged).toBe(0n);
    expect(await ledgerKinds(task!.id)).toEqual(['reserve', 'release']);
    await eventually(
      'the balance back where it was',
      () => storedBalance(tenant.slug),
      (b) => b.balance === before.balance && b.ledger === before.ledger,
    );
  });

  it('a balance that cannot cover the hold is a 429 before any upstream call', async () => {
    const accessKey = `ak-${uniqueSlug('never-called')}`;
    const tenant = await tenantWithImageModel('media-images-poor', 'task=300', '0.03', accessKey);
    const refused = await openaiClient(tenant.key)
      .images.generate({ model: tenant.model, prompt: 'too dear', n: 2 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).status).toBe(429);
    expect((refused as APIError).code).toBe('insufficient_quota');
    expect(await imageTasks(tenant.slug)).toHaveLength(0);
    const stats = (await (await fetch(`${sandbox()}/_sandbox/stats`)).json()) as { authKeys: Record<string, number> };
    const issuers = Object.keys(stats.authKeys).map((token) => {
      try {
        return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { iss?: string }).iss;
      } catch {
        return undefined;
      }
    });
    expect(issuers).not.toContain(accessKey);
  });

  it('bills a plan key by request, and refuses the one past its quota with 429', async () => {
    const plan = uniqueSlug('images-plan');
    const tenant = await createTenantWithKey({
      label: 'media-images-plan',
      billing: 'plan',
      plan,
      expires: '2099-01-01T00:00:00Z',
      catalog: { plans: [{ name: plan, quota: { requests: 1 }, period: 3600 }] },
    });
    const openai = openaiClient(tenant.key);
    const answer = await openai.images.generate({ model: 'sandbox-kling-image', prompt: 'counted' });
    expect(answer.data).toHaveLength(1);
    const refused = await openai.images.generate({ model: 'sandbox-kling-image', prompt: 'one too many' }).catch((error: unknown) => error);
    expect((refused as APIError).status).toBe(429);
    expect(await imageTasks(tenant.slug)).toHaveLength(1);
  });
});
