/**
 * The poll phase of `npm run bench:media`: Kling-style video tasks whose upstream times spread over a
 * range (sandbox `task` + `spread`), held by one worker, once on a channel that is polled (the learned
 * schedule) and once on a channel with vendor callbacks. For each: upstream reads per task (the task's
 * polls + the read that saw its end) and the completion lag (the sandbox's own end time → the gateway's
 * terminal move), p50/p99, the first COLD tasks (created before any history) apart from the rest, and
 * the worker's CPU from the rest's first create to their last end.
 */
import type pg from 'pg';
import { request } from 'undici';

export const COLD = 100;

export interface PollPhaseResult {
  label: string;
  tasks: number;
  pollsPerTask: number;
  lag50: number;
  lag99: number;
  /** The worker's CPU, % of a core, while the rest were created and ended (absent for the cold start). */
  workerCpu?: number;
}

interface PollPhaseOptions {
  sql: pg.Client;
  gatewayUrl: string;
  sandboxUrl: string;
  key: string;
  /** The nativemedia model_name; its `-std` catalog id is the model. */
  modelName: string;
  tasks: number;
  concurrency: number;
  post: (url: string, headers: Record<string, string>, body: unknown) => Promise<unknown>;
  timed: (n: number, concurrency: number, call: (i: number) => Promise<unknown>) => Promise<number[]>;
  percentile: (values: number[], p: number) => number;
  /** CPU seconds the worker has used so far. */
  workerCpuSeconds: () => Promise<number>;
}

/** A bearer the sandbox's Kling-style API accepts (it checks the shape, issuer and expiry, not the signature). */
function sandboxBearer(): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `Bearer ${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iss: 'ak-sandbox', exp: Math.floor(Date.now() / 1000) + 3600 })}.bench`;
}

async function waitEnded(sql: pg.Client, model: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql.query<{ n: string }>(
      "SELECT count(*) AS n FROM media_tasks WHERE model = $1 AND state NOT IN ('succeeded', 'failed', 'cancelled')",
      [model],
    );
    if (Number(rows[0]!.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]!.n} tasks of ${model} still live`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** When the sandbox says the task ended (its `updated_at` once it has). */
async function upstreamEndedAt(sandboxUrl: string, upstreamId: string): Promise<number> {
  const response = await request(`${sandboxUrl}/kling/v1/videos/text2video/${encodeURIComponent(upstreamId)}`, { headers: { authorization: sandboxBearer() } });
  const body = (await response.body.json()) as { data?: { updated_at?: number } };
  return Number(body.data?.updated_at ?? NaN);
}

export async function runPollPhase(options: PollPhaseOptions): Promise<PollPhaseResult[]> {
  const { sql, modelName, tasks } = options;
  const model = `${modelName}-std`;
  const create = (i: number) =>
    options.post(
      `${options.gatewayUrl}/nativemedia/v1/videos/text2video`,
      { authorization: `Bearer ${options.key}` },
      { model_name: modelName, mode: 'std', prompt: `bench ${i}` },
    );
  // The first tasks meet no history; the rest are created once those have ended and taught it.
  const cold = Math.min(COLD, tasks);
  await options.timed(cold, options.concurrency, create);
  await waitEnded(sql, model, 900_000);
  const cpuBefore = await options.workerCpuSeconds();
  const restStarted = Date.now();
  await options.timed(tasks - cold, options.concurrency, (i) => create(cold + i));
  await waitEnded(sql, model, 900_000);
  const workerCpu = (((await options.workerCpuSeconds()) - cpuBefore) / ((Date.now() - restStarted) / 1000)) * 100;
  const { rows } = await sql.query<{ polls: number; finished: Date; upstream_task_id: string; state: string }>(
    'SELECT polls, finished_at AS finished, upstream_task_id, state FROM media_tasks WHERE model = $1 ORDER BY created_at',
    [model],
  );
  const measured: { polls: number; lag: number }[] = [];
  for (let i = 0; i < rows.length; i += 32) {
    const slice = rows.slice(i, i + 32);
    const ends = await Promise.all(slice.map((r) => upstreamEndedAt(options.sandboxUrl, r.upstream_task_id)));
    slice.forEach((r, j) => measured.push({ polls: r.polls + 1, lag: r.finished.getTime() - ends[j]! }));
  }
  const summary = (label: string, part: { polls: number; lag: number }[]): PollPhaseResult => ({
    label,
    tasks: part.length,
    pollsPerTask: part.reduce((sum, m) => sum + m.polls, 0) / Math.max(1, part.length),
    lag50: options.percentile(
      part.map((m) => m.lag),
      50,
    ),
    lag99: options.percentile(
      part.map((m) => m.lag),
      99,
    ),
  });
  return [summary(`first ${cold} (cold start)`, measured.slice(0, cold)), { ...summary('the rest', measured.slice(cold)), workerCpu }];
}
