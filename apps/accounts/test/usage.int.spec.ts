import { taskUsageEvent, TaskUsagePublisher, WalletKeys, WalletStore, type EndedTask } from '@gateway/billing';
import { catalogConfig } from './accounts.harness';
import { ApplyResult, sampleUsageEvent, SUBJECTS, TenantView, UsageSummary, usageStreamNames } from '@gateway/contracts';
import { encodeJson } from '@gateway/platform';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const event = sampleUsageEvent;

describe('usage writer: the durable consumer of usage events', () => {
  let h: AccountsHarness;
  let sql: pg.Client;
  let redis: Redis;
  let wallet: WalletStore;

  beforeAll(async () => {
    h = await startAccountsHarness('accounts_usage');
    sql = new pg.Client({ connectionString: h.db.url });
    await sql.connect();
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    wallet = new WalletStore(redis, WalletKeys.fromPrefix(h.bus.prefix));
  }, 60_000);

  afterAll(async () => {
    await sql?.end();
    redis?.disconnect();
    await h?.stop();
  });

  /** Publishes like the chat service does: one JetStream message per batch, deduplicated by msgID. */
  async function publish(body: unknown, msgID = randomUUID()): Promise<void> {
    const { subject, stream } = usageStreamNames(h.bus.prefix);
    await h.bus.connection.jetstream().publish(subject, encodeJson(body), { msgID, expect: { streamName: stream } });
  }

  async function rows(ids: string[], count: number): Promise<Array<Record<string, unknown>>> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = await sql.query('SELECT * FROM usage_records WHERE request_id = ANY($1) ORDER BY request_id', [ids]);
      if (found.rows.length >= count || Date.now() > deadline) return found.rows;
      await sleep(50);
    }
  }

  it('writes every event of a batch, and a single bare event, once each', async () => {
    const batch = [event(), event({ outcome: 'cancelled', status: 499 }), event({ outcome: 'upstream_error', status: 500, channelId: null })];
    const bare = event({ family: 'msgc', route: 'msgc.messages' });
    await publish({ events: batch });
    await publish(bare);
    const ids = [...batch, bare].map((e) => e.requestId);
    const written = await rows(ids, 4);
    expect(written).toHaveLength(4);
    const cancelled = written.find((r) => r.request_id === batch[1]!.requestId)!;
    expect(cancelled).toMatchObject({ outcome: 'cancelled', status: 499, prompt_tokens: 7, completion_tokens: 11, tenant_id: batch[1]!.tenantId });
    expect((cancelled.created_at as Date).toISOString()).toBe(batch[1]!.at);
    expect(written.find((r) => r.request_id === batch[2]!.requestId)!.channel_id).toBeNull();
    expect(written.find((r) => r.request_id === bare.requestId)!.family).toBe('msgc');

    // A republished batch (another msgID: outside the stream's dedupe) lands on the same keys and is skipped.
    await publish({ events: batch });
    await sleep(400);
    expect((await sql.query('SELECT count(*)::int AS n FROM usage_records WHERE request_id = ANY($1)', [ids])).rows[0].n).toBe(4);
  });

  it('ends the billing holds its events carry: charged at usage, released on failure, and only once', async () => {
    const tenantId = randomUUID();
    await wallet.credit(tenantId, 0n, 10_000n);
    const served = event({ tenantId });
    const failed = event({ tenantId, outcome: 'upstream_error', status: 500 });
    for (const e of [served, failed]) {
      const outcome = await wallet.reserve({ requestId: e.requestId, tenantId, amount: 100n, holdTtlMs: 60_000, target: { mode: 'balance' } });
      expect(outcome.status).toBe('reserved');
    }
    expect(await wallet.balance(tenantId)).toBe(9_800n);

    await publish({
      events: [
        { ...served, settlement: { action: 'settle', micros: '37' } },
        { ...failed, settlement: { action: 'release' } },
      ],
    });
    expect(await rows([served.requestId, failed.requestId], 2)).toHaveLength(2);
    // 37 charged of the 100 held; the failed request's 100 come back whole.
    expect(await wallet.balance(tenantId)).toBe(10_000n - 37n);
    expect(await wallet.holdCount()).toBe(0);

    // The same settlement again (a redelivery after a crash) finds no hold and charges nothing.
    await publish({ events: [{ ...served, requestId: served.requestId, settlement: { action: 'settle', micros: '37' } }] });
    await sleep(400);
    expect(await wallet.balance(tenantId)).toBe(10_000n - 37n);
  });

  it('draws lease-admitted requests from their lease, then closes it, returning the rest', async () => {
    // The ledger's rows belong to a real tenant.
    const { id: tenantId } = await h.bus.request(SUBJECTS.accounts.tenants.create, { slug: 'leased' }, TenantView);
    await wallet.credit(tenantId, 0n, 10_000n);
    const lease = `lease:${randomUUID()}`;
    await wallet.reserve({ requestId: lease, tenantId, amount: 1_000n, holdTtlMs: 60_000, target: { mode: 'balance' }, lease: true });
    const first = event({ tenantId });
    const second = event({ tenantId });
    await publish({ events: [{ ...first, settlement: { action: 'draw', lease, micros: '40' } }] });
    await publish({ events: [{ ...second, settlement: { action: 'draw', lease, micros: '60' } }], closes: [{ lease, charged: '100' }] });
    expect(await rows([first.requestId, second.requestId], 2)).toHaveLength(2);
    expect(await wallet.balance(tenantId)).toBe(10_000n - 100n);
    expect(await redis.exists(wallet.keys.hold(lease))).toBe(0);
    // Each request has its own charge in the ledger.
    const ledger = async () =>
      (
        await sql.query<{ request_id: string; amount_micros: string }>(
          'SELECT request_id, amount_micros FROM ledger_entries WHERE tenant_id = $1 ORDER BY amount_micros',
          [tenantId],
        )
      ).rows;
    const deadline = Date.now() + 10_000;
    while ((await ledger()).length < 2 && Date.now() < deadline) await sleep(100);
    expect(await ledger()).toEqual([
      { request_id: second.requestId, amount_micros: '-60' },
      { request_id: first.requestId, amount_micros: '-40' },
    ]);
  }, 20_000);

  it('charges usage above a hold or an admission as far as the balance reaches, ledgered as an overrun, and writes off the rest', async () => {
    const { id: tenantId } = await h.bus.request(SUBJECTS.accounts.tenants.create, { slug: 'overrun' }, TenantView);
    await wallet.credit(tenantId, 0n, 1_000n);
    const own = event({ tenantId });
    await wallet.reserve({ requestId: own.requestId, tenantId, amount: 300n, holdTtlMs: 60_000, target: { mode: 'balance' } });
    const lease = `lease:${randomUUID()}`;
    await wallet.reserve({ requestId: lease, tenantId, amount: 600n, holdTtlMs: 60_000, target: { mode: 'balance' }, lease: true });
    const leased = event({ tenantId });
    await publish({
      events: [
        { ...own, settlement: { action: 'settle', micros: '500' } },
        { ...leased, settlement: { action: 'draw', lease, micros: '900', held: '100' } },
      ],
      closes: [{ lease, charged: '900' }],
    });
    expect(await rows([own.requestId, leased.requestId], 2)).toHaveLength(2);
    // 100 was left beside the two holds: own's overrun takes it, and the rest of both is written off.
    expect(await wallet.balance(tenantId)).toBe(0n);
    const ledger = async () =>
      (
        await sql.query<{ request_id: string; kind: string; amount_micros: string }>(
          'SELECT request_id, kind, amount_micros FROM ledger_entries WHERE tenant_id = $1 ORDER BY id',
          [tenantId],
        )
      ).rows;
    const deadline = Date.now() + 10_000;
    while ((await ledger()).length < 7 && Date.now() < deadline) await sleep(100);
    const entries = await ledger();
    expect(entries.filter((e) => e.request_id === own.requestId).map((e) => [e.kind, e.amount_micros])).toEqual([
      ['reserve', '-300'],
      ['settle', '0'],
      ['overrun', '-100'],
      ['write_off', '0'],
    ]);
    expect(
      entries
        .filter((e) => e.request_id === leased.requestId)
        .map((e) => [e.kind, e.amount_micros])
        .sort(),
    ).toEqual([
      ['overrun', '-500'],
      ['settle', '-100'],
      ['write_off', '0'],
    ]);
    // The stored balance moved by the ledger's sum: what was charged, the credit of 1,000 above having gone to Redis only.
    const stored = async () => (await sql.query<{ micros: string }>('SELECT micros FROM balances WHERE tenant_id = $1', [tenantId])).rows[0]?.micros;
    while ((await stored()) !== '-1000' && Date.now() < deadline) await sleep(100);
    expect(await stored()).toBe('-1000');
  }, 20_000);

  it('drops a malformed message without holding up the ones behind it', async () => {
    const after = event();
    await publish({ events: [{ requestId: 'missing everything else' }] });
    await publish({ events: [after] });
    expect(await rows([after.requestId], 1)).toHaveLength(1);
  });

  it('drops a message that is not JSON without holding up the batch it came in', async () => {
    const { subject, stream, durable } = usageStreamNames(h.bus.prefix);
    const before = event();
    const after = event();
    await publish({ events: [before] });
    await h.bus.connection
      .jetstream()
      .publish(subject, new TextEncoder().encode('{"events": [truncated'), { msgID: randomUUID(), expect: { streamName: stream } });
    await publish({ events: [after] });
    expect(await rows([before.requestId, after.requestId], 2)).toHaveLength(2);
    const jsm = await h.bus.connection.jetstreamManager();
    const deadline = Date.now() + 5000;
    let info = await jsm.consumers.info(stream, durable);
    while (info.num_ack_pending + info.num_pending > 0 && Date.now() < deadline) {
      await sleep(100);
      info = await jsm.consumers.info(stream, durable);
    }
    expect(info.num_ack_pending + info.num_pending).toBe(0);
  }, 20_000);

  it('declares its stream again when the stream disappears under it, and goes on writing', async () => {
    const { stream } = usageStreamNames(h.bus.prefix);
    const jsm = await h.bus.connection.jetstreamManager();
    await jsm.streams.delete(stream);
    // The server leaves a pull for a missing stream unanswered: the writer gives it up and declares the stream again.
    const after = event();
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        await publish({ events: [after] });
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(250);
      }
    }
    expect(await rows([after.requestId], 1)).toHaveLength(1);
  }, 30_000);

  it('writes one record however many workers publish the same ended task, with its kind, units, subject and charge', async () => {
    const id = `video_${randomUUID().replace(/-/g, '')}`;
    const hold = { holdId: id, tenantId: 't', perRequest: false, prices: { perSecond: '100000', perImage: '0', perTask: '0' }, heldMicros: '500000' };
    const task: EndedTask = {
      id,
      kind: 'media_task',
      tenantId: randomUUID(),
      keyId: randomUUID(),
      modelId: 'sandbox-sora',
      channelId: null,
      family: 'oaic',
      route: 'oaic.videos.create',
      result: 'succeeded',
      status: 200,
      produced: { seconds: 4, tasks: 1 },
      charged: 400_000n,
      hold,
      createdAt: new Date(),
    };
    // Racing workers (one stream message, deduplicated by the task's id), and a sweeper that billed the
    // task again and published it as a message of its own: the writer still keeps one row.
    const publishers = Array.from({ length: 4 }, () => new TaskUsagePublisher(h.bus));
    await Promise.all([...publishers.map((p) => p.record(task)), publish({ events: [taskUsageEvent(task)] }), publish({ events: [taskUsageEvent(task)] })]);
    expect(await rows([id], 1)).toHaveLength(1);
    // Every copy has reached the writer by now; still one row.
    await sleep(1000);
    const written = (await sql.query('SELECT * FROM usage_records WHERE request_id = $1', [id])).rows;
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ kind: 'media_task', subject_id: id, seconds: 4, tasks: 1, outcome: 'succeeded', cost_micros: '400000' });
  }, 30_000);

  it('stores a model name no catalog entry knows bounded and printable, and sums it as (unknown), never as a model of its own', async () => {
    await h.bus.request(SUBJECTS.accounts.config.apply, catalogConfig(), ApplyResult);
    const { id: tenantId } = await h.bus.request(SUBJECTS.accounts.tenants.create, { slug: 'unknown-models' }, TenantView);
    const hostile = `-1+1+cmd|' /C calc'!A0\u0000\u001b[31m${'z'.repeat(5_000)}`;
    const events = [
      event({ tenantId, modelId: 'sandbox-gpt' }),
      event({ tenantId, modelId: hostile }),
      event({ tenantId, modelId: 'made-up-model' }),
      event({ tenantId, modelId: 'made-up-model\u0085' }),
    ];
    await publish({ events });
    const written = await rows(
      events.map((e) => e.requestId),
      4,
    );
    const stored = written.find((r) => r.request_id === events[1]!.requestId)!.model_id as string;
    expect(stored).toHaveLength(128);
    expect(stored.slice(0, 28)).toBe("-1+1+cmd|' /C calc'!A0\uFFFD[31mz");
    expect(written.map((r) => r.model_id as string).every((name) => !/[\u0000-\u001f\u007f-\u009f]/.test(name))).toBe(true);

    const summary = await h.bus.request(SUBJECTS.accounts.billing.usageSummary, { tenant: 'unknown-models', by: 'model' }, UsageSummary);
    expect(summary.rows.map((row) => [row.group, row.requests])).toEqual([
      ['(unknown)', 3],
      ['sandbox-gpt', 1],
    ]);
  });
});
