/**
 * The stack's NATS server is killed under a steady stream of chat requests, unary and streamed, and
 * started again 3 s later: no request waits longer than the chat timeout, every answer is 200 or 503
 * with Retry-After, and from 10 s after the restart every request succeeds. Runs its own nats-server
 * (free port, own store) and its own stack, since it kills the server.
 */
import { AdminClient, freePort, launchStack, loadConfigFile, REPO_ROOT, type RunningStack } from '@gateway/cli';
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { SPEC_STACK_ENV } from '../support/stack-env';

const NATS_SERVER = '/usr/sbin/nats-server';
const CHAT_TIMEOUT_MS = 8000;
const OUTAGE_MS = 3000;
const SETTLE_MS = 10_000;

interface Outcome {
  startedAt: number;
  ms: number;
  status: number;
  retryAfter?: string;
  stream: boolean;
  body: string;
}

function startNats(port: number, storeDir: string, log: NodeJS.WritableStream): ChildProcess {
  const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  return child;
}

/** Resolves once the port takes connections. */
async function listening(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await sleep(50);
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('a NATS restart under load', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  let nats: ChildProcess;
  let natsPort: number;
  let storeDir: string;
  let key: string;
  const logFile = path.join(os.tmpdir(), `gateway-nats-restart-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);
  const prefix = `natsdrop${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;

  beforeAll(async () => {
    natsPort = await freePort();
    storeDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-nats-store-'));
    nats = startNats(natsPort, storeDir, log);
    await listening(natsPort);
    db = await createTestDatabase(undefined, 'natsdrop');
    stack = await launchStack({
      natsUrl: `nats://127.0.0.1:${natsPort}`,
      natsPrefix: prefix,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-natsdrop-objects-')),
      migrate: false,
      env: { ...SPEC_STACK_ENV, CHAT_TIMEOUT_MS: String(CHAT_TIMEOUT_MS) },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    await admin.createTenant({ slug: 'natsdrop' });
    await admin.topup({ tenant: 'natsdrop', amount: '100.00' });
    key = (await admin.createKey({ tenant: 'natsdrop' })).key;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    nats?.kill('SIGKILL');
    if (nats) await exited(nats);
    await db?.drop();
    if (storeDir) await rm(storeDir, { recursive: true, force: true });
    log.end();
  });

  async function ask(stream: boolean): Promise<Outcome> {
    const startedAt = Date.now();
    const response = await request(`${stack.baseUrl}/oaic/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sandbox-gpt-slow', messages: [{ role: 'user', content: 'restart load' }], max_tokens: 16, stream }),
      headersTimeout: CHAT_TIMEOUT_MS * 2,
      bodyTimeout: CHAT_TIMEOUT_MS * 2,
    });
    const body = await response.body.text();
    const retryAfter = response.headers['retry-after'];
    return {
      startedAt,
      ms: Date.now() - startedAt,
      status: response.statusCode,
      retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
      stream,
      body,
    };
  }

  it('answers every request within the timeout, 200 or 503 with Retry-After, and all of them again soon after', async () => {
    expect((await ask(false)).status).toBe(200);
    const outcomes: Outcome[] = [];
    let stopAt = Number.POSITIVE_INFINITY;
    const client = async (stream: boolean) => {
      while (Date.now() < stopAt) outcomes.push(await ask(stream));
    };
    const clients = [...Array.from({ length: 6 }, () => client(false)), ...Array.from({ length: 2 }, () => client(true))];

    await sleep(1000);
    nats.kill('SIGKILL');
    await exited(nats);
    const downAt = Date.now();
    // The outage itself: the server stays down this long, as in the reported restarts.
    await sleep(OUTAGE_MS);
    nats = startNats(natsPort, storeDir, log);
    await listening(natsPort);
    const restartedAt = Date.now();
    stopAt = restartedAt + SETTLE_MS + 3000;
    await Promise.all(clients);

    const during = outcomes.filter((o) => o.startedAt >= downAt - 1000 && o.startedAt < restartedAt + SETTLE_MS);
    const after = outcomes.filter((o) => o.startedAt >= restartedAt + SETTLE_MS);
    const where = `(logs: ${logFile})`;
    for (const o of outcomes) {
      expect({ where, ms: o.ms, under: o.ms < CHAT_TIMEOUT_MS }).toEqual({ where, ms: o.ms, under: true });
      if (o.status === 200) continue;
      expect({ where, status: o.status, retryAfter: o.retryAfter, body: o.body }).toEqual({ where, status: 503, retryAfter: '1', body: o.body });
    }
    expect(during.some((o) => o.status === 503 || (o.stream && o.body.includes('"unavailable"')))).toBe(true);
    expect(after.length).toBeGreaterThan(8);
    expect(after.filter((o) => o.status !== 200 || (o.stream && !o.body.includes('[DONE]'))).map((o) => o.body)).toEqual([]);
  }, 120_000);
});
