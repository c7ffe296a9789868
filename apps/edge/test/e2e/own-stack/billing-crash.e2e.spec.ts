/**
 * kill -9 of the chat service in the middle of a load run, then a restart: no hold outlives the sweeper,
 * every answered request has its usage record, and the ledger still recomputes the balance. Runs its own
 * stack (own database, NATS prefix, short hold lifetime) because it kills one of its processes.
 */
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { AdminClient, launchStack, loadConfigFile, REPO_ROOT, type RunningStack } from '@gateway/cli';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { request } from 'undici';
import { chat, eventually, storedBalance, withSql } from '../support/billing-fixtures';
import { SPEC_STACK_ENV } from '../support/stack-env';

const HOLD_TTL_MS = 3000;
const SWEEP_MS = 500;

describe('billing across a chat crash', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  let restarted: ChildProcess | undefined;
  let admin: AdminClient;
  let redis: Redis;
  const logFile = path.join(os.tmpdir(), `gateway-crash-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);
  const prefix = `crash${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'crash');
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: prefix,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-crash-objects-')),
      migrate: false,
      env: {
        ...SPEC_STACK_ENV,
        BILLING_HOLD_TTL_MS: String(HOLD_TTL_MS),
        BILLING_LEASE_TTL_MS: String(HOLD_TTL_MS),
        BILLING_SWEEP_INTERVAL_MS: String(SWEEP_MS),
        CHAT_TIMEOUT_MS: '5000',
      },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    redis = new Redis(stack.redisUrl);
  }, 120_000);

  afterAll(async () => {
    restarted?.kill('SIGKILL');
    redis?.disconnect();
    await stack?.stop();
    await db?.drop();
    log.end();
  });

  it('leaves no hold and loses no usage record of an answered request', async () => {
    await admin.createTenant({ slug: 'crashy' });
    await admin.topup({ tenant: 'crashy', amount: '100.00' });
    const key = await admin.createKey({ tenant: 'crashy' });
    const holdsKey = `{bill:${prefix.replace(/\.$/, '')}}:holds`;

    // 16 clients in a loop on a model with 20 ms of upstream latency; the chat service dies under them.
    let stop = false;
    const outcomes: Array<{ status: number; requestId: string }> = [];
    const client = async () => {
      while (!stop) {
        const result = await chat(key.key, 'crash load', { base: stack.baseUrl, model: 'sandbox-gpt-slow', maxTokens: 32 }).catch(() => null);
        if (result) outcomes.push({ status: result.status, requestId: result.requestId });
      }
    };
    const clients = Array.from({ length: 16 }, client);
    await sleep(1500);
    const chatProcess = stack.processes.find((p) => p.name === 'chat')!;
    process.kill(chatProcess.pid!, 'SIGKILL');
    await chatProcess.exited;
    await sleep(500);
    restarted = spawn(process.execPath, [path.join(REPO_ROOT, 'apps', 'chat', 'dist', 'main.js')], { env: stack.env, stdio: 'ignore' });
    await eventually(
      'chat answers again',
      () => chat(key.key, 'after restart', { base: stack.baseUrl }).then((r) => r.status),
      (s) => s === 200,
      30_000,
    );
    await sleep(500);
    stop = true;
    await Promise.all(clients);

    const answered = outcomes.filter((o) => o.status === 200);
    expect(answered.length).toBeGreaterThan(5);
    expect(outcomes.some((o) => o.status !== 200)).toBe(true);

    // After the hold lifetime and a sweep, nothing stays held.
    await eventually(
      `holds swept (logs: ${logFile})`,
      () => redis.zcard(holdsKey),
      (n) => n === 0,
      HOLD_TTL_MS + 20 * SWEEP_MS,
    );

    // Every answered request has its usage record; no more were recorded as served than the sandbox served.
    const ids = answered.map((o) => o.requestId);
    const recorded = await eventually(
      'usage records',
      () =>
        withSql(
          async (sql) =>
            (await sql.query<{ n: string }>("SELECT count(*) AS n FROM usage_records WHERE request_id = ANY($1) AND outcome = 'ok'", [ids])).rows[0]!.n,
          db.url,
        ),
      (n) => Number(n) === ids.length,
      // Usage events the killed process had pulled but not acknowledged come back after JetStream's ack wait (30 s).
      45_000,
    );
    expect(Number(recorded)).toBe(ids.length);
    const stats = (await (await request(`${stack.sandboxUrl}/_sandbox/stats`)).body.json()) as { routes: Record<string, Record<string, number>> };
    const servedBySandbox = Object.entries(stats.routes)
      .filter(([route]) => route.includes('chat/completions'))
      .reduce((sum, [, byOutcome]) => sum + (byOutcome.ok ?? 0), 0);
    const okRecords = await withSql(
      async (sql) => Number((await sql.query<{ n: string }>("SELECT count(*) AS n FROM usage_records WHERE outcome = 'ok'")).rows[0]!.n),
      db.url,
    );
    expect(okRecords).toBeGreaterThanOrEqual(ids.length);
    expect(okRecords).toBeLessThanOrEqual(servedBySandbox);

    // The ledger, persisted through the crash, still recomputes the balance row, which equals the live one.
    const live = async () => BigInt((await admin.balance('crashy')).balanceMicros);
    const settled = await eventually(
      'ledger catches up',
      async () => ({ stored: await storedBalance('crashy', db.url), live: await live() }),
      (s) => s.stored.balance === s.live,
      30_000,
    );
    expect(settled.stored.ledger).toBe(settled.stored.balance);
    expect(settled.live).toBeGreaterThanOrEqual(0n);
    expect(settled.live).toBeLessThan(100_000_000n);
  }, 120_000);
});
