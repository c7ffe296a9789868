/**
 * Every charge visible and provable: one tenant runs chat in the three families (streamed and not,
 * through their official SDKs), a batch, media tasks that succeed, fail after accept and are refused at
 * submit, music tasks, an assistants run, an image, a transcription and embeddings; then its usage, summed
 * over every kind, equals what left its balance, each kind appears, each task is found by its id, the
 * ledger shows running balances, and `reconcile` exits 0. One ledger entry written by hand makes it exit 1
 * naming the tenant and the entry.
 */
import { USAGE_KINDS, type LedgerPage, type ReconcileReport, type UsageRequests, type UsageSummary } from '@gateway/contracts';
import Redis from 'ioredis';
import { getGlobalDispatcher } from 'undici';
import { eventually, withSql } from './support/billing-fixtures';
import { chatFile, finished, waitForBatch } from './support/batch-fixtures';
import { runCli, type CliResult } from './support/cli-runner';
import {
  adminClient,
  anthropicClient,
  baseUrl,
  bearer,
  createTenantWithKey,
  googleClient,
  http,
  openaiClient,
  uniqueSlug,
  type TenantWithKey,
} from './support/gateway';
import { dscEnded, pollTask, post } from './support/media-fixtures';
import { wavTone } from './support/oaic-fixtures';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TOP_UP = 100_000_000n;

async function cliJson<T>(args: string[]): Promise<T> {
  const result = await runCli([...args, '--json']);
  if (result.code !== 0) throw new Error(`gatewayctl ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`);
  return JSON.parse(result.stdout) as T;
}

describe('money: usage of every kind, the ledger and reconciliation', () => {
  let tenant: TenantWithKey;
  const models = { failing: `failing-${uniqueSlug('mm')}`, refused: `refused-${uniqueSlug('mm')}`, assistant: `assistant-${uniqueSlug('gpt')}` };
  const ids: { media: string[]; music: string[]; batch?: string; run?: string } = { media: [], music: [] };

  beforeAll(async () => {
    getGlobalDispatcher();
    const video = (id: string, upstreamModel: string) => ({
      id,
      displayName: `Media ${id}`,
      capability: 'video' as const,
      public: false,
      provider: 'sandbox-dashscope',
      upstreamModel,
      prices: { perSecond: '0.10' },
    });
    tenant = await createTenantWithKey({
      label: 'money',
      models: Object.values(models),
      catalog: {
        models: [
          video(models.failing, 'wan-video@task=300,taskfail=mid'),
          video(models.refused, 'wan-video@taskfail=submit'),
          {
            id: models.assistant,
            displayName: 'Assistants model',
            capability: 'chat',
            public: false,
            provider: 'sandbox-openai',
            upstreamModel: 'sandbox-gpt',
            assistants: true,
            prices: { inputPerMTok: '1.00', outputPerMTok: '2.00' },
          },
        ],
      },
    });
  });

  it('sums every kind of usage to what left the balance, finds each task by its id, and reconciles', async () => {
    const openai = openaiClient(tenant.key);
    // Chat in three families, each streamed and not.
    await openai.chat.completions.create({ model: 'sandbox-gpt', messages: [{ role: 'user', content: 'money one' }] });
    for await (const chunk of await openai.chat.completions.create({
      model: 'sandbox-gpt',
      messages: [{ role: 'user', content: 'money two' }],
      stream: true,
    })) {
      void chunk;
    }
    const anthropic = anthropicClient(tenant.key);
    await anthropic.messages.create({ model: 'sandbox-claude', max_tokens: 50, messages: [{ role: 'user', content: 'money three' }] });
    await anthropic.messages.stream({ model: 'sandbox-claude', max_tokens: 50, messages: [{ role: 'user', content: 'money four' }] }).finalMessage();
    const google = googleClient(tenant.key);
    await google.models.generateContent({ model: 'sandbox-gemini', contents: 'money five' });
    for await (const chunk of await google.models.generateContentStream({ model: 'sandbox-gemini', contents: 'money six' })) void chunk;

    // A batch of three lines.
    const input = await openai.files.create({ file: chatFile(3, ['sandbox-gpt'], 'money'), purpose: 'batch' });
    const batch = await openai.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    ids.batch = batch.id;

    // Media: a video that succeeds, a task that fails after it was accepted, a submit the upstream refuses.
    // The video and the songs carry their client's x-request-id, which their usage records keep.
    const clientIds = { video: uniqueSlug('client-video'), music: [uniqueSlug('client-song'), uniqueSlug('client-song')] };
    const video = await http('POST', `${baseUrl()}/oaic/v1/videos`, {
      headers: { ...bearer(tenant.key), 'x-request-id': clientIds.video },
      json: { model: 'sandbox-sora', prompt: 'paid', seconds: '4' },
    });
    expect(video.status).toBe(200);
    ids.media.push((video.body as Json).id as string);
    const failing = await post(tenant.key, '/dsc/v1/services/aigc/video-generation/video-synthesis', {
      model: models.failing,
      input: { prompt: 'fails' },
      parameters: { duration: 5 },
    });
    expect(failing.status).toBe(200);
    ids.media.push((failing.body as Json).output.task_id as string);
    const refused = await post(tenant.key, '/dsc/v1/services/aigc/video-generation/video-synthesis', {
      model: models.refused,
      input: { prompt: 'refused' },
      parameters: { duration: 5 },
    });
    expect(refused.status).toBe(400);

    // An image, a transcription, embeddings.
    await openai.images.generate({ model: 'sandbox-kling-image', prompt: 'one lantern', response_format: 'b64_json' });
    const form = new FormData();
    form.append('model', 'sandbox-whisper');
    form.append('response_format', 'json');
    form.append('file', new Blob([new Uint8Array(wavTone(2000))], { type: 'audio/wav' }), 'tone.wav');
    expect((await fetch(`${baseUrl()}/oaic/v1/audio/transcriptions`, { method: 'POST', headers: bearer(tenant.key), body: form })).status).toBe(200);
    await openai.embeddings.create({ model: 'sandbox-embedding', input: 'money seven' });

    // Music: one song that succeeds, one whose generation fails.
    for (const [index, model] of ['sandbox-music', 'sandbox-music-failing'].entries()) {
      const song = { customMode: false, instrumental: false, model, callBackUrl: 'https://hooks.example.com/money', prompt: 'a song about ledgers' };
      const headers = { ...bearer(tenant.key), 'x-request-id': clientIds.music[index]! };
      const created = await http('POST', `${baseUrl()}/music/generate`, { headers, json: song });
      expect(created.status).toBe(200);
      ids.music.push((created.body as Json).data.taskId as string);
    }

    // An assistants run.
    const assistant = await openai.beta.assistants.create({ model: models.assistant, name: 'Bookkeeper' });
    const thread = await openai.beta.threads.create({ messages: [{ role: 'user', content: 'Count the money' }] });
    const run = await openai.beta.threads.runs.create(thread.id, { assistant_id: assistant.id });
    ids.run = run.id;

    // Everything ends.
    await waitForBatch(openai, batch.id, finished);
    await pollTask(tenant.key, `/oaic/v1/videos/${ids.media[0]}`, (b) => b.status !== 'queued' && b.status !== 'in_progress');
    await pollTask(tenant.key, `/dsc/v1/tasks/${ids.media[1]}`, dscEnded);
    for (const taskId of ids.music) {
      await eventually(
        `music task ${taskId} ends`,
        async () => (await http('GET', `${baseUrl()}/music/query/task?taskId=${taskId}`, { headers: bearer(tenant.key) })).body as Json,
        (b) => ['SUCCESS', 'GENERATE_AUDIO_FAILED', 'CREATE_TASK_FAILED'].includes(b.data?.status),
        30_000,
      );
    }

    // Books: once the writers have caught up, usage over every kind = top-up − balance, and reconcile passes.
    const books = await eventually(
      'usage to sum to what left the balance, and the books to reconcile',
      async () => {
        const summary = await cliJson<UsageSummary>(['usage', '--tenant', tenant.slug, '--by', 'kind']);
        const balance = await cliJson<{ balanceMicros: string }>(['balance', 'show', '--tenant', tenant.slug]);
        const reconciled: CliResult = await runCli(['reconcile', '--tenant', tenant.slug]);
        const spent = summary.rows.reduce((sum, r) => sum + BigInt(r.costMicros), 0n);
        return { summary, spent: spent.toString(), left: (TOP_UP - BigInt(balance.balanceMicros)).toString(), reconciled };
      },
      (b) => b.spent === b.left && b.reconciled.code === 0 && b.summary.rows.length >= 8,
      45_000,
    );
    expect(BigInt(books.spent)).toBeGreaterThan(0n);
    const kinds = books.summary.rows.map((r) => r.group).sort();
    for (const kind of ['chat', 'batch_line', 'media_task', 'music_task', 'assistants_run', 'images', 'audio', 'embeddings']) expect(kinds).toContain(kind);
    expect(kinds.every((k) => (USAGE_KINDS as readonly string[]).includes(k))).toBe(true);
    expect(books.summary.rows.find((r) => r.group === 'chat')!.requests).toBe(6);
    expect(books.summary.rows.find((r) => r.group === 'batch_line')!.requests).toBe(3);
    expect(books.summary.rows.find((r) => r.group === 'media_task')!.requests).toBe(3);
    expect(books.summary.rows.find((r) => r.group === 'music_task')!.requests).toBe(2);
    expect(books.reconciled.stdout).toMatch(/^ok: 1 tenant\(s\) reconciled/);

    // Each task, the batch and the run are found by their ids.
    const [succeeded, failed] = ids.media;
    const byId = async (id: string) => (await cliJson<UsageRequests>(['usage', 'requests', '--tenant', tenant.slug, '--id', id])).rows;
    expect(await byId(succeeded!)).toEqual([expect.objectContaining({ requestId: succeeded, kind: 'media_task', result: 'succeeded', costMicros: '400000' })]);
    expect(await byId(failed!)).toEqual([expect.objectContaining({ requestId: failed, kind: 'media_task', result: 'failed', costMicros: '0' })]);
    const songs = await Promise.all(ids.music.map(byId));
    expect(songs.map((rows) => rows.map((r) => [r.kind, r.result, r.subjectId]))).toEqual([
      [['music_task', 'succeeded', ids.music[0]]],
      [['music_task', 'failed', ids.music[1]]],
    ]);
    // A task is found by the x-request-id its client sent, as a request is.
    expect(await byId(clientIds.video)).toEqual([expect.objectContaining({ subjectId: succeeded, kind: 'media_task', clientRequestId: clientIds.video })]);
    for (const [index, clientId] of clientIds.music.entries()) {
      expect(await byId(clientId)).toEqual([expect.objectContaining({ subjectId: ids.music[index], kind: 'music_task', clientRequestId: clientId })]);
    }
    expect(await byId(ids.batch!)).toHaveLength(3);
    expect(await byId(ids.run!)).toEqual([expect.objectContaining({ kind: 'assistants_run', result: 'succeeded', subjectId: ids.run })]);

    // The same through the admin API, and the CSV form.
    const admin = await adminClient().usage({ tenant: tenant.slug, by: 'kind' });
    expect(admin.rows.map((r) => r.group).sort()).toEqual(kinds);
    expect((await adminClient().usageRequests({ tenant: tenant.slug, subjectId: succeeded! })).rows).toHaveLength(1);
    const csv = await runCli(['usage', '--tenant', tenant.slug, '--by', 'kind', '--csv']);
    expect(csv.stdout.split('\n')[0]).toBe('kind,requests,prompt_tokens,completion_tokens,seconds,images,tasks,cost');

    // The ledger: every entry with what it belongs to and the balance after it, ending at the stored balance.
    const entries: LedgerPage['rows'] = [];
    for (let cursor: string | null = null; ;) {
      const page: LedgerPage = await cliJson<LedgerPage>(['ledger', '--tenant', tenant.slug, '--limit', '50', ...(cursor ? ['--cursor', cursor] : [])]);
      entries.push(...page.rows);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(entries[0]).toMatchObject({ kind: 'topup', amountMicros: TOP_UP.toString(), balanceMicros: TOP_UP.toString() });
    const stored = await withSql(
      async (sql) =>
        (await sql.query('SELECT b.micros FROM balances b JOIN tenants t ON t.id = b.tenant_id WHERE t.slug = $1', [tenant.slug])).rows[0].micros as string,
    );
    expect(entries.filter((e) => e.pool === 'balance').at(-1)!.balanceMicros).toBe(stored);
    expect(entries.find((e) => e.requestId === succeeded && e.kind === 'settle')).toMatchObject({ usageKind: 'media_task', subjectId: succeeded });
    const holds = await cliJson<LedgerPage>(['ledger', '--tenant', tenant.slug, '--kind', 'hold', '--limit', '1000']);
    expect(holds.rows.length).toBeGreaterThan(0);
    expect(holds.rows.every((r) => r.kind === 'reserve')).toBe(true);
  }, 180_000);

  it('a ledger entry no request explains makes reconcile exit 1 naming the tenant and the entry', async () => {
    const victim = await createTenantWithKey({ label: 'money-stray', balance: '5.00' });
    const bystander = await createTenantWithKey({ label: 'money-clean', balance: '5.00' });
    expect((await runCli(['reconcile', '--tenant', victim.slug])).code).toBe(0);
    const stray = await withSql(
      async (sql) =>
        (
          await sql.query<{ id: string }>(
            `INSERT INTO ledger_entries (tenant_id, kind, pool, amount_micros, note)
             SELECT id, 'adjust', 'balance', -1234, 'written by hand' FROM tenants WHERE slug = $1 RETURNING id::text`,
            [victim.slug],
          )
        ).rows[0]!.id,
    );
    const failed = await runCli(['reconcile', '--tenant', victim.slug]);
    expect(failed.code).toBe(1);
    expect(failed.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(failed.stdout).toContain(victim.slug);
    expect(failed.stdout).toContain(`entry ${stray}`);
    expect(failed.stdout).toContain('0.001234');
    expect((await runCli(['reconcile', '--tenant', bystander.slug])).code).toBe(0);
    const all = await runCli(['reconcile', '--all', '--json']);
    expect(all.code).toBe(1);
    const report = JSON.parse(all.stdout) as ReconcileReport;
    const failing = report.tenants.filter((t) => !t.ok);
    expect(failing.map((t) => t.tenant)).toContain(victim.slug);
    expect(failing.map((t) => t.tenant)).not.toContain(bystander.slug);
    expect(failing.find((t) => t.tenant === victim.slug)!.findings[0]).toMatchObject({ check: 'stored_balance', differenceMicros: '1234', ids: [stray] });
  }, 60_000);

  it("shows a plan tenant's quota used and left in the current window beside its usage", async () => {
    const plan = uniqueSlug('money-plan');
    const tenant = await createTenantWithKey({
      label: 'money-plan',
      billing: 'plan',
      plan,
      expires: '2099-01-01T00:00:00Z',
      catalog: { plans: [{ name: plan, quota: { requests: 5 }, period: 3600 }] },
    });
    const body = { model_name: 'sandbox-kling-image', prompt: 'counted' };
    for (let i = 0; i < 2; i++) expect((await post(tenant.key, '/nativemedia/v1/images/generations', body)).status).toBe(200);
    const summary = await eventually(
      'both tasks recorded',
      () => cliJson<UsageSummary>(['usage', '--tenant', tenant.slug, '--by', 'kind']),
      (s) => s.rows.some((r) => r.requests === 2),
    );
    expect(summary.plan).toEqual([expect.objectContaining({ unit: 'requests', used: '2', limit: '5', left: '3' })]);
    const window = summary.plan![0]!;
    expect(Date.parse(window.windowEnd) - Date.parse(window.windowStart)).toBe(3600_000);
    // At the catalog's pay-as-you-go price (0.02 an image), what the window's images would have cost.
    const images = summary.rows.reduce((sum, r) => sum + (r.images ?? 0), 0);
    expect(images).toBeGreaterThanOrEqual(2);
    expect(window.wouldCostMicros).toBe(String(images * 20_000));
    const human = await runCli(['usage', '--tenant', tenant.slug]);
    expect(human.stdout).toContain('used 2 requests of 5 requests, 3 requests left');
    expect(human.stdout).toContain(`it would have cost ${window.wouldCost}`);

    // The quota counter equals the window's usage; one moved by hand makes reconcile name it and the difference.
    expect((await runCli(['reconcile', '--tenant', tenant.slug])).code).toBe(0);
    const tenantId = await withSql(async (sql) => (await sql.query<{ id: string }>('SELECT id::text FROM tenants WHERE slug = $1', [tenant.slug])).rows[0]!.id);
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      const [counter] = (await redis.scan('0', 'MATCH', `*:quota:${tenantId}:*:requests`, 'COUNT', 1_000_000))[1];
      expect(counter).toBeDefined();
      await redis.incrby(counter!, 3);
      const failed = await runCli(['reconcile', '--tenant', tenant.slug]);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain(tenant.slug);
      expect(failed.stdout).toContain(`quota counter ${counter}`);
      expect(failed.stdout).toContain('differs by 3 requests');
      await redis.decrby(counter!, 3);
      expect((await runCli(['reconcile', '--tenant', tenant.slug])).code).toBe(0);
    } finally {
      redis.disconnect();
    }
  }, 60_000);
});
