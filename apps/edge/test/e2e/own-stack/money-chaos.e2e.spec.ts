/**
 * The books across crashes: chat in the three families (streamed and not), a small batch, media tasks and
 * music tasks run while each service process of the deployed topology (accounts, chat, the api and worker
 * processes of files, media and music, edge) is killed with SIGKILL once, in turn, and the supervisor
 * restarts it. Clients may see errors while a process is down;
 * afterwards every task the gateway accepted has ended, the batch is complete and `reconcile --all`
 * exits 0, which proves the key's and the project's budget counters against their charges too. Runs its own supervised stack (own database and NATS prefix) because it kills its processes.
 */
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { AdminClient, launchStack, loadConfigFile, REPO_ROOT, type RunningStack } from '@gateway/cli';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { request } from 'undici';
import { eventually } from '../support/billing-fixtures';
import { chatFile } from '../support/batch-fixtures';
import { msgcHeaders } from '../support/gateway';
import { callStack, ended, expectBatchDoneAndBooksReconciled, MUSIC_ENDS, type Answer } from '../support/own-stack-calls';
import { SPEC_STACK_ENV } from '../support/stack-env';

const KILLED = ['accounts', 'chat', 'files', 'files-worker', 'media', 'media-worker', 'music', 'music-worker', 'edge'] as const;
/** Each client call gives up after this long: a call held by a process that died fails, and the loop goes on. */
const CALL_TIMEOUT_MS = 10_000;

describe('money: the books hold while every service is killed once', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  let key: string;
  let keyId: string;
  let admin: AdminClient;
  const logFile = path.join(os.tmpdir(), `gateway-chaos-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'chaos');
    stack = await launchStack({
      supervise: true,
      workers: true,
      removeNamespaceOnStop: true,
      natsPrefix: `chaos${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-chaos-objects-')),
      migrate: false,
      // Calls a killed process held fail within seconds rather than the default minute, and a job a killed
      // worker held is taken up again within seconds rather than after the default 15–30 s lock.
      env: {
        ...SPEC_STACK_ENV,
        CHAT_TIMEOUT_MS: '5000',
        MEDIA_TIMEOUT_MS: '5000',
        FILES_TIMEOUT_MS: '5000',
        BATCH_LOCK_MS: '3000',
        MEDIA_JOB_LOCK_MS: '3000',
        WEBHOOK_LOCK_MS: '3000',
      },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    await admin.createTenant({ slug: 'chaos' });
    await admin.topup({ tenant: 'chaos', amount: '500.00' });
    const created = await admin.createKey({ tenant: 'chaos' });
    key = created.key;
    keyId = created.id;
    // Every request is held against a hard key budget and a soft project budget as well as the balance.
    await admin.setBudget({ key: keyId, amount: '400.00', period: 'month' });
    await admin.setBudget({ tenant: 'chaos', project: 'default', amount: '1.00', period: 'total', mode: 'soft' });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
    log.end();
  });

  const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, json?: unknown) =>
    callStack(stack, CALL_TIMEOUT_MS, method, url, headers, json);

  it('ends every task, completes the batch and reconciles after each process was killed once', async () => {
    const bearer = { authorization: `Bearer ${key}` };
    const user = [{ role: 'user', content: 'chaos' }];
    const chats: Array<() => Promise<Answer>> = [
      () => call('POST', '/oaic/v1/chat/completions', bearer, { model: 'sandbox-gpt', messages: user, max_tokens: 16 }),
      () => call('POST', '/oaic/v1/chat/completions', bearer, { model: 'sandbox-gpt', messages: user, max_tokens: 16, stream: true }),
      () => call('POST', '/msgc/v1/messages', msgcHeaders(key), { model: 'sandbox-claude', max_tokens: 16, messages: user }),
      () => call('POST', '/msgc/v1/messages', msgcHeaders(key), { model: 'sandbox-claude', max_tokens: 16, messages: user, stream: true }),
      () => call('POST', '/genc/v1beta/models/sandbox-gemini:generateContent', bearer, { contents: [{ role: 'user', parts: [{ text: 'chaos' }] }] }),
      () =>
        call('POST', '/genc/v1beta/models/sandbox-gemini:streamGenerateContent?alt=sse', bearer, { contents: [{ role: 'user', parts: [{ text: 'chaos' }] }] }),
    ];
    const media: string[] = [];
    const music: string[] = [];
    let served = 0;
    let stop = false;

    // A batch of four lines, submitted before the first kill (the SDK retries a call that meets a restart).
    const openai = new OpenAI({ apiKey: key, baseURL: `${stack.baseUrl}/oaic/v1`, maxRetries: 5, timeout: CALL_TIMEOUT_MS });
    const input = await openai.files.create({ file: chatFile(4, ['sandbox-gpt'], 'chaos'), purpose: 'batch' });
    const batch = await openai.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });

    const chatLoop = async (offset: number) => {
      for (let i = offset; !stop; i++) if ((await chats[i % chats.length]!()).status === 200) served++;
    };
    // Each task loop waits for its task to end (or gives up on it after a while) before creating the next.
    const mediaLoop = async () => {
      while (!stop) {
        const created = await call('POST', '/oaic/v1/videos', bearer, { model: 'sandbox-sora', prompt: 'chaos', seconds: '4' });
        if (created.status !== 200) continue;
        media.push(created.body.id as string);
        await ended(
          () => call('GET', `/oaic/v1/videos/${created.body.id}`, bearer),
          (b) => ['completed', 'failed'].includes(b.status),
          15_000,
        );
      }
    };
    const musicLoop = async () => {
      while (!stop) {
        const song = { customMode: false, instrumental: true, model: 'sandbox-music', callBackUrl: 'https://hooks.example.com/chaos', prompt: 'chaos' };
        const created = await call('POST', '/music/generate', bearer, song);
        if (created.status !== 200 || created.body.code !== 200) continue;
        const taskId = created.body.data.taskId as string;
        music.push(taskId);
        await ended(
          () => call('GET', `/music/query/task?taskId=${taskId}`, bearer),
          (b) => MUSIC_ENDS.includes(b.data?.status),
          15_000,
        );
      }
    };
    const loops = [chatLoop(0), chatLoop(3), mediaLoop(), musicLoop()];

    const ready = async (app: (typeof KILLED)[number]) => {
      const url = app === 'edge' ? `${stack.baseUrl}/readyz` : `${stack.metricsUrls[app]}/readyz`;
      const status = await request(url, { signal: AbortSignal.timeout(2000) })
        .then(async (r) => (await r.body.text(), r.statusCode))
        .catch(() => 0);
      return status === 200;
    };
    const serving = (more: number) => {
      const from = served;
      return eventually(
        `${more} more chat answers`,
        async () => served - from,
        (n) => n >= more,
        30_000,
      );
    };

    await serving(5);
    for (const app of KILLED) {
      const killed = stack.processes.find((p) => p.name === app)!;
      process.kill(killed.pid!, 'SIGKILL');
      await eventually(
        `${app} restarted (logs: ${logFile})`,
        async () => stack.processes.find((p) => p.name === app)!,
        (p) => p !== killed && p.running,
        10_000,
      );
      await eventually(
        `${app} ready again (logs: ${logFile})`,
        () => ready(app),
        (ok) => ok,
        30_000,
      );
    }
    // Every process answers again: chat is served end to end (edge, accounts and chat).
    await serving(5);
    expect(media.length + music.length).toBeGreaterThan(0);
    stop = true;
    await Promise.all(loops);

    // Every task the gateway accepted ends, and the batch completes.
    for (const id of media) {
      await eventually(
        `video ${id} ends`,
        () => call('GET', `/oaic/v1/videos/${id}`, bearer),
        (a) => ['completed', 'failed'].includes(a.body.status),
        30_000,
      );
    }
    for (const id of music) {
      await eventually(
        `song ${id} ends`,
        () => call('GET', `/music/query/task?taskId=${id}`, bearer),
        (a) => MUSIC_ENDS.includes(a.body.data?.status),
        30_000,
      );
    }
    // The books: reconcile passes once the writers have caught up (a message a killed consumer had
    // pulled comes back after JetStream's ack wait of 30 s).
    await expectBatchDoneAndBooksReconciled(stack, openai, batch.id, logFile, { batchMs: 45_000, reconcileMs: 60_000 });
    // reconcile proved each budget counter against its charges; both counted this run's spending.
    const [own, project] = await Promise.all([admin.showBudget({ key: keyId }), admin.showBudget({ tenant: 'chaos', project: 'default' })]);
    expect(BigInt(own!.usedMicros)).toBeGreaterThan(0n);
    expect(project!.usedMicros).toBe(own!.usedMicros);
  }, 240_000);
});
