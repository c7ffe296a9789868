/**
 * `npm run bench:files`: files and batches through a freshly launched stack, each beside a same-run baseline.
 * 1. A 1 GiB upload through the gateway (multipart, streamed, no declared file size) against a plain write of
 *    the same bytes to the same storage folder: throughput ratio, and the peak RSS growth of the edge and the
 *    files service while the upload runs (read from /proc every 50 ms).
 * 2. A 10,000-line chat batch against the same requests sent live at the same concurrency: lines per second.
 *    The model (`bench-gpt`, applied by the bench: the sandbox's chat on a channel without `nativeBatch`)
 *    keeps the batch on the line-by-line path; the same lines of `sandbox-gpt`, whose channel is flagged,
 *    then run as a native batch (forwarded whole to the sandbox's batch API), printed for comparison.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { AdminClient, loadConfigFile, launchStack, type RunningStack, REPO_ROOT } from '@gateway/cli';

const UPLOAD_BYTES = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 * 1024 * 1024);
const LINES = Number(process.env.BENCH_BATCH_LINES ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const MODEL = process.env.BENCH_MODEL ?? 'bench-gpt';
const NATIVE_MODEL = process.env.BENCH_NATIVE_MODEL ?? 'sandbox-gpt';
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const MiB = 1024 * 1024;

const agent = new Agent({ connections: CONCURRENCY + 8, keepAliveTimeout: 60_000 });

/** `bytes` bytes in 64 KiB chunks, made as they are read. */
function bytesStream(bytes: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) return void this.push(null);
      const n = Math.min(CHUNK.length, bytes - sent);
      sent += n;
      this.push(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
    },
  });
}

/** A multipart body: the purpose field, then the file part streamed, with no length declared. */
function multipartStream(boundary: string, bytes: number): Readable {
  async function* parts() {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n`);
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    for await (const chunk of bytesStream(bytes)) yield chunk as Buffer;
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return Readable.from(parts());
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

/** Samples the RSS of each pid until stopped; returns the growth of each over its first reading. */
function watchRss(pids: Record<string, number>): { stop: () => Promise<Record<string, number>> } {
  const base: Record<string, number> = {};
  const peak: Record<string, number> = {};
  let running = true;
  const loop = (async () => {
    for (const [name, pid] of Object.entries(pids)) base[name] = peak[name] = await rssOf(pid);
    while (running) {
      for (const [name, pid] of Object.entries(pids)) peak[name] = Math.max(peak[name]!, await rssOf(pid));
      await sleep(50);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return Object.fromEntries(Object.keys(pids).map((name) => [name, peak[name]! - base[name]!]));
    },
  };
}

async function plainWrite(dir: string): Promise<number> {
  const file = path.join(dir, `plain-${randomBytes(4).toString('hex')}`);
  const started = performance.now();
  await pipeline(bytesStream(UPLOAD_BYTES), createWriteStream(file));
  const seconds = (performance.now() - started) / 1000;
  await rm(file, { force: true });
  return UPLOAD_BYTES / seconds;
}

async function gatewayUpload(base: string, key: string, bytes = UPLOAD_BYTES): Promise<{ rate: number; fileId: string }> {
  const boundary = `bench${randomBytes(6).toString('hex')}`;
  const started = performance.now();
  const response = await request(`${base}/oaic/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: multipartStream(boundary, bytes),
    dispatcher: agent,
    headersTimeout: 600_000,
    bodyTimeout: 600_000,
  });
  const body = (await response.body.json()) as { id?: string; bytes?: number };
  if (response.statusCode !== 200 || body.bytes !== bytes) throw new Error(`upload answered ${response.statusCode}: ${JSON.stringify(body)}`);
  return { rate: bytes / ((performance.now() - started) / 1000), fileId: body.id! };
}

function chatBody(i: number, model = MODEL): Record<string, unknown> {
  return { model, messages: [{ role: 'user', content: `Benchmark line ${i}.` }], max_tokens: 16 };
}

/** The same requests as the batch, sent live by CONCURRENCY closed-loop clients. */
async function live(base: string, key: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < LINES) {
      const i = next++;
      const response = await request(`${base}/oaic/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(chatBody(i)),
        dispatcher: agent,
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`live request answered ${response.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return LINES / ((performance.now() - started) / 1000);
}

async function batch(base: string, key: string, model = MODEL): Promise<{ rate: number; phases: string }> {
  const auth = { authorization: `Bearer ${key}` };
  const jsonl = Array.from({ length: LINES }, (_, i) =>
    JSON.stringify({ custom_id: `b-${i}`, method: 'POST', url: '/v1/chat/completions', body: chatBody(i, model) }),
  ).join('\n');
  const form = new FormData();
  form.append('purpose', 'batch');
  form.append('file', new Blob([jsonl]), 'bench.jsonl');
  const uploaded = (await (await fetch(`${base}/oaic/v1/files`, { method: 'POST', headers: auth, body: form })).json()) as { id: string };
  const started = performance.now();
  const created = await fetch(`${base}/oaic/v1/batches`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ input_file_id: uploaded.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
  });
  const { id } = (await created.json()) as { id: string };
  for (;;) {
    const state = (await (await fetch(`${base}/oaic/v1/batches/${id}`, { headers: auth })).json()) as {
      status: string;
      request_counts: { completed: number; failed: number };
      created_at: number;
      in_progress_at: number;
      finalizing_at: number;
      completed_at: number;
    };
    if (state.status === 'completed') {
      if (state.request_counts.completed !== LINES) throw new Error(`batch completed ${state.request_counts.completed} of ${LINES} lines`);
      const phases = `validating ${state.in_progress_at - state.created_at} s, in_progress ${state.finalizing_at - state.in_progress_at} s, finalizing ${state.completed_at - state.finalizing_at} s`;
      return { rate: LINES / ((performance.now() - started) / 1000), phases };
    }
    if (['failed', 'expired', 'cancelled'].includes(state.status)) throw new Error(`batch ended ${state.status}`);
    await sleep(100);
  }
}

const mibps = (rate: number) => `${(rate / MiB).toFixed(1)} MiB/s`;
const row = (name: string, baseline: string, gateway: string, ratio: string, target: string) =>
  `${name.padEnd(34)}${baseline.padStart(16)}${gateway.padStart(16)}${ratio.padStart(9)}   ${target}`;

async function main(): Promise<void> {
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const logFile = path.join(os.tmpdir(), `gateway-bench-files-${stamp}.log`);
  const log = createWriteStream(logFile);
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-bench-files-'));
  const { createTestDatabase } = await import('@gateway/db');
  const db = await createTestDatabase(undefined, 'bench');
  let stack: RunningStack | undefined;
  try {
    process.stdout.write(`launching the stack (logs: ${logFile})\n`);
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: `benchfiles${stamp}.`,
      databaseUrl: db.url,
      storageDir,
      migrate: false,
      logLevel: 'warn',
      env: {
        NO_COLOR: '1',
        HTTP_REQUEST_TIMEOUT_SECONDS: '600',
        FILES_MAX_BYTES: String(Math.max(UPLOAD_BYTES, 1024 * MiB)),
        BATCH_CONCURRENCY: String(CONCURRENCY),
        BATCH_TENANT_CONCURRENCY: String(CONCURRENCY),
        NATIVE_BATCH_POLL_MS: '200',
      },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    // The sandbox's chat on a channel without nativeBatch: its batches run line by line.
    await admin.apply({
      models: [
        {
          id: 'bench-gpt',
          displayName: 'Bench GPT (line by line)',
          capability: 'chat',
          createdAt: '2025-01-01T00:00:00Z',
          provider: 'sandbox-openai',
          upstreamModel: 'sandbox-gpt',
          prices: { inputPerMTok: '0.50', outputPerMTok: '1.50' },
        },
      ],
    });
    const slug = `bench-${stamp}`;
    await admin.createTenant({ slug, billing: 'payg' });
    await admin.topup({ tenant: slug, amount: '1000.00' });
    const { key } = await admin.createKey({ tenant: slug, name: 'bench' });
    const pidOf = (name: string) => stack!.processes.find((p) => p.name === name)!.pid!;

    process.stdout.write(`upload: ${(UPLOAD_BYTES / MiB).toFixed(0)} MiB, plain write then through the gateway\n`);
    const plain = await plainWrite(storageDir);
    // A small upload first, so the RSS readings start from processes that have served one already.
    const warm = await gatewayUpload(stack.baseUrl, key, 8 * MiB);
    await request(`${stack.baseUrl}/oaic/v1/files/${warm.fileId}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } }).then((r) =>
      r.body.text(),
    );
    const watcher = watchRss({ edge: pidOf('edge'), files: pidOf('files') });
    const upload = await gatewayUpload(stack.baseUrl, key);
    const growth = await watcher.stop();
    await request(`${stack.baseUrl}/oaic/v1/files/${upload.fileId}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } }).then((r) =>
      r.body.text(),
    );

    process.stdout.write(`batch: ${LINES} lines of ${MODEL} at concurrency ${CONCURRENCY}, live then as a batch\n`);
    const liveRate = await live(stack.baseUrl, key);
    const { rate: batchRate, phases } = await batch(stack.baseUrl, key);
    process.stdout.write(`native batch: ${LINES} lines of ${NATIVE_MODEL}, forwarded to the sandbox's batch API\n`);
    const native = await batch(stack.baseUrl, key, NATIVE_MODEL);

    const lines = [
      '',
      row('measure', 'baseline', 'gateway', 'ratio', 'target'),
      row(
        `${(UPLOAD_BYTES / MiB).toFixed(0)} MiB upload throughput`,
        mibps(plain),
        mibps(upload.rate),
        `${(upload.rate / plain).toFixed(2)}x`,
        '>= 0.70x a plain write',
      ),
      row('  edge peak RSS growth', '', `${(growth.edge! / MiB).toFixed(1)} MiB`, '', '< 50 MiB'),
      row('  files service peak RSS growth', '', `${(growth.files! / MiB).toFixed(1)} MiB`, '', '< 50 MiB'),
      row(
        `${LINES}-line batch, lines/s`,
        `${liveRate.toFixed(0)} live`,
        `${batchRate.toFixed(0)} batch`,
        `${(batchRate / liveRate).toFixed(2)}x`,
        `>= 0.80x live at c=${CONCURRENCY}`,
      ),
      `  batch phases: ${phases}`,
      row(`${LINES}-line native batch, lines/s`, '', `${native.rate.toFixed(0)} batch`, `${(native.rate / liveRate).toFixed(2)}x`, 'for comparison'),
      `  native batch phases: ${native.phases}`,
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    await stack?.stop();
    await db.drop().catch(() => undefined);
    await rm(storageDir, { recursive: true, force: true });
    log.end();
    await agent.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:files failed: ${(error as Error).message}\n`);
  process.exit(1);
});
