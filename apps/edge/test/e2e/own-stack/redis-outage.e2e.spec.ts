/**
 * The stack's Redis is killed under a steady stream of chat requests, unary and streamed, and started again
 * 5 s later: every answer is 200 or 503 with Retry-After, none 500, each process logs at most two lines
 * about it (lost, back; accounts one more, the wallet rebuilt on the restarted server), and requests
 * succeed again once it is back. Runs its own redis-server (free port,
 * own append-only file) and its own stack, since it kills the server.
 */
import { AdminClient, freePort, launchStack, loadConfigFile, REPO_ROOT, type RunningStack } from '@gateway/cli';
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { eventually } from '../support/billing-fixtures';
import { answering, exited, startRedis } from '../support/own-redis';
import { SPEC_STACK_ENV } from '../support/stack-env';

const CHAT_TIMEOUT_MS = 8000;
const OUTAGE_MS = 5000;
const REDIS_LINE = /redis|ECONNREFUSED|MaxRetriesPerRequest/i;

interface Outcome {
  startedAt: number;
  status: number;
  retryAfter?: string;
  stream: boolean;
  body: string;
}

describe('a Redis outage under load', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  let redis: ChildProcess;
  let redisPort: number;
  let dataDir: string;
  let key: string;
  const logFile = path.join(os.tmpdir(), `gateway-redis-outage-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);
  const lines: Array<{ at: number; app: string; line: string }> = [];
  const prefix = `rdrop${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;

  beforeAll(async () => {
    redisPort = await freePort();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-redis-data-'));
    redis = startRedis(redisPort, dataDir, log);
    await answering(redisPort);
    db = await createTestDatabase(undefined, 'rdrop');
    stack = await launchStack({
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      natsPrefix: prefix,
      removeNamespaceOnStop: true,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-rdrop-objects-')),
      migrate: false,
      env: { ...SPEC_STACK_ENV, CHAT_TIMEOUT_MS: String(CHAT_TIMEOUT_MS) },
      sink: (app, line) => {
        lines.push({ at: Date.now(), app, line });
        log.write(`[${app}] ${line}\n`);
      },
    });
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    await admin.createTenant({ slug: 'rdrop' });
    await admin.topup({ tenant: 'rdrop', amount: '100.00' });
    key = (await admin.createKey({ tenant: 'rdrop' })).key;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    redis?.kill('SIGKILL');
    if (redis) await exited(redis);
    await db?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    log.end();
  });

  async function ask(stream: boolean): Promise<Outcome> {
    const startedAt = Date.now();
    const response = await request(`${stack.baseUrl}/oaic/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sandbox-gpt-slow', messages: [{ role: 'user', content: 'redis load' }], max_tokens: 16, stream }),
      headersTimeout: CHAT_TIMEOUT_MS * 2,
      bodyTimeout: CHAT_TIMEOUT_MS * 2,
    });
    const retryAfter = response.headers['retry-after'];
    return {
      startedAt,
      status: response.statusCode,
      retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
      stream,
      body: await response.body.text(),
    };
  }

  it('answers 200 or 503 with Retry-After throughout, logs the fault once each way, and serves again once Redis is back', async () => {
    expect((await ask(false)).status).toBe(200);
    const outcomes: Outcome[] = [];
    let stop = false;
    const client = async (stream: boolean) => {
      while (!stop) outcomes.push(await ask(stream));
    };
    const clients = [...Array.from({ length: 6 }, () => client(false)), ...Array.from({ length: 2 }, () => client(true))];

    await eventually(
      'load before the outage',
      async () => outcomes.length,
      (n) => n >= 8,
    );
    const downAt = Date.now();
    redis.kill('SIGKILL');
    await exited(redis);
    // The outage itself: Redis stays down this long.
    await sleep(OUTAGE_MS);
    redis = startRedis(redisPort, dataDir, log);
    await answering(redisPort);
    const upAt = Date.now();
    const served = await eventually(
      `unary answers served after Redis is back (logs: ${logFile})`,
      async () => outcomes.filter((o) => o.startedAt > upAt && !o.stream && o.status === 200).length,
      (n) => n >= 8,
      30_000,
    );
    stop = true;
    await Promise.all(clients);

    const where = `(logs: ${logFile})`;
    for (const o of outcomes) {
      if (o.status === 200) continue;
      expect({ where, status: o.status, retryAfter: o.retryAfter, body: o.body }).toEqual({ where, status: 503, retryAfter: '1', body: o.body });
    }
    expect(outcomes.filter((o) => o.stream && o.body.includes('"internal"')).map((o) => o.body)).toEqual([]);
    expect(outcomes.some((o) => o.startedAt >= downAt && o.startedAt < upAt && o.status === 503)).toBe(true);
    expect(served).toBeGreaterThanOrEqual(8);

    const about = lines.filter((l) => l.at >= downAt && REDIS_LINE.test(l.line));
    const perApp = new Map<string, string[]>();
    for (const { app, line } of about) perApp.set(app, [...(perApp.get(app) ?? []), line]);
    // Redis restarted from its file is a new server to the wallet: accounts says once that it rebuilt the wallet.
    const rebuilt = (line: string) => line.includes('wallet rebuilt on Redis server');
    for (const [app, said] of perApp) {
      const others = said.filter((line) => !rebuilt(line));
      const rebuilds = said.filter(rebuilt).length;
      expect({ where, app, said, atMostTwo: others.length <= 2, rebuilds: rebuilds <= (app === 'accounts' ? 1 : 0) }).toEqual({
        where,
        app,
        said,
        atMostTwo: true,
        rebuilds: true,
      });
    }
  }, 120_000);
});
