/**
 * kill -9 of the chat service under load, then a restart: the balance leases the killed process held come
 * back to the wallet by themselves, so the tenant's live balance (what `balance show` reads) equals its
 * ledger within 90 s of the kill, with the default lease lifetime. Runs its own Redis and stack, since it
 * kills one of its processes and reads the wallet's keys.
 */
import { AdminClient, freePort, launchStack, loadConfigFile, REPO_ROOT, type RunningStack } from '@gateway/cli';
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { chat, eventually, storedBalance } from '../support/billing-fixtures';
import { answering, exited, startRedis } from '../support/own-redis';
import { SPEC_STACK_ENV } from '../support/stack-env';

const RETURN_WITHIN_MS = 90_000;

describe('balance leases of a killed chat process', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  let redisServer: ChildProcess;
  let redis: Redis;
  let dataDir: string;
  let restarted: ChildProcess | undefined;
  let admin: AdminClient;
  const logFile = path.join(os.tmpdir(), `gateway-lease-return-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);
  const prefix = `leaseback${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;

  beforeAll(async () => {
    const port = await freePort();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-lease-redis-'));
    redisServer = startRedis(port, dataDir, log);
    await answering(port);
    db = await createTestDatabase(undefined, 'leaseback');
    stack = await launchStack({
      redisUrl: `redis://127.0.0.1:${port}`,
      removeNamespaceOnStop: true,
      natsPrefix: prefix,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-leaseback-objects-')),
      migrate: false,
      env: { ...SPEC_STACK_ENV, CHAT_TIMEOUT_MS: '5000' },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    redis = new Redis(stack.redisUrl);
  }, 120_000);

  afterAll(async () => {
    restarted?.kill('SIGKILL');
    if (restarted) await exited(restarted);
    redis?.disconnect();
    await stack?.stop();
    redisServer?.kill('SIGKILL');
    if (redisServer) await exited(redisServer);
    await db?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    log.end();
  });

  it('gives the killed process its leases back: the live balance equals the ledger within 90 s', async () => {
    await admin.createTenant({ slug: 'leaseback' });
    await admin.topup({ tenant: 'leaseback', amount: '100.00' });
    const key = await admin.createKey({ tenant: 'leaseback' });
    const holdsKey = `{bill:${prefix.replace(/\.$/, '')}}:holds`;

    let stop = false;
    let answered = 0;
    const client = async () => {
      while (!stop) {
        const result = await chat(key.key, 'lease load', { base: stack.baseUrl, model: 'sandbox-gpt-slow', maxTokens: 32 }).catch(() => null);
        if (result?.status === 200) answered++;
      }
    };
    const clients = Array.from({ length: 8 }, client);
    // The killed process holds a lease: one is open once requests are answered under it.
    await eventually(
      'a lease held under load',
      async () => ({ answered, holds: await redis.zcard(holdsKey) }),
      (s) => s.answered >= 8 && s.holds > 0,
    );
    const chatProcess = stack.processes.find((p) => p.name === 'chat')!;
    process.kill(chatProcess.pid!, 'SIGKILL');
    const killedAt = Date.now();
    await chatProcess.exited;
    restarted = spawn(process.execPath, [path.join(REPO_ROOT, 'apps', 'chat', 'dist', 'main.js')], { env: stack.env, stdio: 'ignore' });
    await eventually(
      'chat answers again',
      () => chat(key.key, 'after restart', { base: stack.baseUrl }).then((r) => r.status),
      (s) => s === 200,
      30_000,
    );
    stop = true;
    await Promise.all(clients);

    const live = async () => BigInt((await admin.balance('leaseback')).balanceMicros);
    const settled = await eventually(
      `live balance back to the ledger (logs: ${logFile})`,
      async () => ({ live: await live(), ledger: (await storedBalance('leaseback', db.url)).ledger }),
      (s) => s.live === s.ledger,
      RETURN_WITHIN_MS - (Date.now() - killedAt),
    );
    expect(Date.now() - killedAt).toBeLessThanOrEqual(RETURN_WITHIN_MS);
    expect(settled.live).toBeLessThan(100_000_000n);
    expect(settled.live).toBeGreaterThan(0n);
  }, 240_000);
});
