/**
 * The stack on high-availability infrastructure of its own: a three-node NATS cluster, Redis with a
 * replica and three Sentinels, and a PostgreSQL server of its own. Under mixed load (chat in three
 * families, streamed and not; media tasks; music tasks whose webhooks go to a local receiver; a batch)
 * one NATS node is killed, the Redis primary is killed and Sentinel promotes the replica, and PostgreSQL
 * is restarted. Afterwards every task has ended, every music task's final webhook arrived signed, the
 * batch is complete, `reconcile --all` passes and no balance is below zero; each fault's window (from
 * the first failed chat request to the first good one after it) and the longest wait of any chat request
 * meanwhile are at most 10 s.
 */
import { AdminClient, launchStack, loadConfigFile, REPO_ROOT, type RunningStack } from '@gateway/cli';
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { startNatsCluster, startRedisSentinelCluster, type NatsCluster, type RedisSentinelCluster } from '@gateway/platform/testing';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { Webhook } from 'standardwebhooks';
import { chatFile } from '../support/batch-fixtures';
import { eventually } from '../support/billing-fixtures';
import { msgcHeaders } from '../support/gateway';
import { callStack, ended, expectBatchDoneAndBooksReconciled, MUSIC_ENDS, type Answer } from '../support/own-stack-calls';
import { startPostgres, type OwnPostgres } from '../support/own-postgres';
import { SPEC_STACK_ENV } from '../support/stack-env';
import { WebhookReceiver } from '../support/webhook-receiver';

const CALL_TIMEOUT_MS = 10_000;
const MAX_WINDOW_MS = 10_000;
const PHASE_MS = 8_000;

interface ChatOutcome {
  startedAt: number;
  endedAt: number;
  status: number;
}

/**
 * A fault's cost to chat requests started from just before it (`from`) to the end of its phase: the window
 * from the first failed request to the first good one after the last failure (0 when none failed), and the
 * longest any request waited for its answer, good or not.
 */
function windowOf(outcomes: readonly ChatOutcome[], from: number, until: number): { ms: number; failed: number; longestMs: number } {
  const phase = outcomes.filter((o) => o.endedAt >= from && o.startedAt < until).sort((a, b) => a.startedAt - b.startedAt);
  const longestMs = Math.max(0, ...phase.map((o) => o.endedAt - o.startedAt));
  const failures = phase.filter((o) => o.status !== 200);
  if (failures.length === 0) return { ms: 0, failed: 0, longestMs };
  const firstFailure = failures[0]!;
  const lastFailure = failures[failures.length - 1]!;
  const recovered = phase.find((o) => o.status === 200 && o.startedAt > lastFailure.startedAt);
  return { ms: (recovered?.endedAt ?? Number.POSITIVE_INFINITY) - firstFailure.startedAt, failed: failures.length, longestMs };
}

describe('infrastructure faults: a NATS node, the Redis primary and PostgreSQL, under mixed load', () => {
  let nats: NatsCluster;
  let redis: RedisSentinelCluster;
  let postgres: OwnPostgres;
  let db: TestDatabase;
  let stack: RunningStack;
  let admin: AdminClient;
  let key: string;
  let secret: string;
  const receiver = new WebhookReceiver();
  const logFile = path.join(os.tmpdir(), `gateway-infra-faults-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);

  beforeAll(async () => {
    await receiver.start();
    [nats, redis, postgres] = await Promise.all([startNatsCluster(3), startRedisSentinelCluster(), startPostgres(log)]);
    db = await createTestDatabase(postgres.url, 'faults');
    stack = await launchStack({
      workers: true,
      natsUrl: nats.url,
      removeNamespaceOnStop: true,
      natsPrefix: `faults${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-faults-objects-')),
      migrate: false,
      env: {
        ...SPEC_STACK_ENV,
        NATS_STREAM_REPLICAS: '3',
        REDIS_SENTINELS: redis.sentinels,
        REDIS_SENTINEL_NAME: redis.name,
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    await admin.createTenant({ slug: 'faults' });
    await admin.topup({ tenant: 'faults', amount: '500.00' });
    key = (await admin.createKey({ tenant: 'faults' })).key;
    secret = (await admin.rotateWebhookSecret('faults')).secret;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
    await Promise.all([nats?.stop(), redis?.stop(), postgres?.stop(), receiver.stop()]);
    log.end();
  }, 60_000);

  const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, json?: unknown) =>
    callStack(stack, CALL_TIMEOUT_MS, method, url, headers, json);

  it('ends every task, delivers every webhook, completes the batch and reconciles, each fault healed within 10 s', async () => {
    const bearer = { authorization: `Bearer ${key}` };
    const user = [{ role: 'user', content: 'faults' }];
    const gemini = { contents: [{ role: 'user', parts: [{ text: 'faults' }] }] };
    const chats: Array<() => Promise<Answer>> = [
      () => call('POST', '/oaic/v1/chat/completions', bearer, { model: 'sandbox-gpt', messages: user, max_tokens: 16 }),
      () => call('POST', '/oaic/v1/chat/completions', bearer, { model: 'sandbox-gpt', messages: user, max_tokens: 16, stream: true }),
      () => call('POST', '/msgc/v1/messages', msgcHeaders(key), { model: 'sandbox-claude', max_tokens: 16, messages: user }),
      () => call('POST', '/msgc/v1/messages', msgcHeaders(key), { model: 'sandbox-claude', max_tokens: 16, messages: user, stream: true }),
      () => call('POST', '/genc/v1beta/models/sandbox-gemini:generateContent', bearer, gemini),
      () => call('POST', '/genc/v1beta/models/sandbox-gemini:streamGenerateContent?alt=sse', bearer, gemini),
    ];
    const outcomes: ChatOutcome[] = [];
    const media: string[] = [];
    const music: Array<{ taskId: string; hook: string }> = [];
    let stop = false;

    const openai = new OpenAI({ apiKey: key, baseURL: `${stack.baseUrl}/oaic/v1`, maxRetries: 5, timeout: CALL_TIMEOUT_MS });
    const input = await openai.files.create({ file: chatFile(4, ['sandbox-gpt'], 'faults'), purpose: 'batch' });
    const batch = await openai.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });

    const chatLoop = async (offset: number) => {
      for (let i = offset; !stop; i++) {
        const startedAt = Date.now();
        const { status } = await chats[i % chats.length]!();
        outcomes.push({ startedAt, endedAt: Date.now(), status });
        if (status !== 200) await sleep(100);
      }
    };
    const mediaLoop = async () => {
      while (!stop) {
        const created = await call('POST', '/oaic/v1/videos', bearer, { model: 'sandbox-sora', prompt: 'faults', seconds: '4' });
        if (created.status !== 200) {
          await sleep(200);
          continue;
        }
        media.push(created.body.id as string);
        await ended(
          () => call('GET', `/oaic/v1/videos/${created.body.id}`, bearer),
          (b) => ['completed', 'failed'].includes(b.status),
          15_000,
        );
      }
    };
    const musicLoop = async () => {
      for (let n = 0; !stop; n++) {
        const hook = `faults-${n}`;
        const song = { customMode: false, instrumental: true, model: 'sandbox-music', callBackUrl: receiver.url(hook), prompt: 'faults' };
        const created = await call('POST', '/music/generate', bearer, song);
        if (created.status !== 200 || created.body.code !== 200) {
          await sleep(200);
          continue;
        }
        const taskId = created.body.data.taskId as string;
        music.push({ taskId, hook });
        await ended(
          () => call('GET', `/music/query/task?taskId=${taskId}`, bearer),
          (b) => MUSIC_ENDS.includes(b.data?.status),
          15_000,
        );
      }
    };
    const loops = [chatLoop(0), chatLoop(2), chatLoop(4), mediaLoop(), musicLoop()];

    const served = () => outcomes.filter((o) => o.status === 200).length;
    const serving = async (what: string, more: number) => {
      const from = served();
      await eventually(
        `${more} more chat answers ${what} (logs: ${logFile})`,
        async () => served() - from,
        (n) => n >= more,
        60_000,
      );
    };

    await serving('before the faults', 12);
    const faults: Array<{ name: string; at: number; until: number }> = [];
    // Each fault's phase lasts until chat is served again and at least PHASE_MS have passed, so tasks and
    // webhooks are in flight across every fault.
    const fault = async (name: string, act: () => Promise<void>) => {
      const at = Date.now();
      await act();
      await serving(`after ${name}`, 12);
      await sleep(Math.max(0, at + PHASE_MS - Date.now()));
      faults.push({ name, at, until: Date.now() });
    };

    await fault('a NATS node killed', () => nats.kill(nats.ports[0]!));
    await fault('the Redis primary killed and the replica promoted', async () => {
      const primary = await redis.primaryPort();
      await redis.kill(primary);
      await redis.promoted(primary, 30_000);
    });
    await fault('PostgreSQL restarted', () => postgres.restart(2000));
    await serving('at the end', 6);
    stop = true;
    await Promise.all(loops);

    const windows = faults.map(({ name, at, until }) => ({ name, ...windowOf(outcomes, at, until) }));
    console.log(`infrastructure faults: ${windows.map((w) => `${w.name}: ${w.failed} failed, window ${w.ms} ms, longest wait ${w.longestMs} ms`).join('; ')}`);
    for (const window of windows) {
      expect({ ...window, within: window.ms <= MAX_WINDOW_MS && window.longestMs <= MAX_WINDOW_MS }).toEqual({ ...window, within: true });
    }
    expect(media.length).toBeGreaterThan(0);
    expect(music.length).toBeGreaterThan(0);

    // A poll job written to the Redis primary just before it died is lost with it: the media sweeper polls
    // such a task again once it has been quiet for a minute.
    for (const id of media) {
      await eventually(
        `video ${id} ends`,
        () => call('GET', `/oaic/v1/videos/${id}`, bearer),
        (a) => ['completed', 'failed'].includes(a.body.status),
        120_000,
      );
    }
    const verifier = new Webhook(secret);
    for (const { taskId, hook } of music) {
      const final = await eventually(
        `song ${taskId} ends`,
        () => call('GET', `/music/query/task?taskId=${taskId}`, bearer),
        (a) => MUSIC_ENDS.includes(a.body.data?.status),
        60_000,
      );
      const finalType = final.body.data.status === 'SUCCESS' ? 'complete' : 'error';
      await eventually(
        `song ${taskId}'s ${finalType} webhook arrives signed`,
        async () => receiver.at(hook).map((hit) => (verifier.verify(hit.body, hit.headers) as { data: { callbackType: string; taskId: string } }).data),
        (hooks) => hooks.some((h) => h.taskId === taskId && h.callbackType === finalType),
        60_000,
      );
    }
    await expectBatchDoneAndBooksReconciled(stack, openai, batch.id, logFile, { batchMs: 90_000, reconcileMs: 120_000 });
    const balance = await admin.balance('faults');
    expect(BigInt(balance.balanceMicros)).toBeGreaterThanOrEqual(0n);
  }, 600_000);
});
