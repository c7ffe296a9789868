import { Queue, Worker, type Job, type JobsOptions, type WorkerOptions } from 'bullmq';
import type Redis from 'ioredis';
import { watchRedis } from '../redis/create-redis';
import { redisOptions, type RedisTarget } from '../redis/redis-env';
import { redisState, type RedisStateLog } from '../redis/redis-state-log';
import { RevivingRedis } from '../redis/reviving-redis';
import type { z } from 'zod';
import { gatewayMetrics, onScrape } from '../observability/metrics';
import { contextOfFields, endSpanWithError, SpanKind, trace, traceContext, traceFields, tracer, tracingOn } from '../observability/tracing';

/** Where a job carries the trace context of the request that queued it (tracing on only); schemas strip it. */
export const JOB_TRACE_FIELD = '_trace';

function withTrace(data: unknown): unknown {
  if (!tracingOn() || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  return { ...data, [JOB_TRACE_FIELD]: traceFields() };
}

/** Runs a job's processor in a consumer span that continues the trace of the request that queued the job. */
async function traced<R>(queue: string, job: Job, run: () => Promise<R>): Promise<R> {
  const fields = (job.data as Record<string, unknown> | null)?.[JOB_TRACE_FIELD] as Record<string, string> | undefined;
  const parent = contextOfFields(fields);
  const span = tracer().startSpan(
    `${queue} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'bullmq',
        'messaging.destination.name': queue,
        'messaging.message.id': job.id ?? '',
        'gateway.job.attempt': job.attemptsMade + 1,
      },
    },
    parent,
  );
  try {
    const result = await traceContext.with(trace.setSpan(parent, span), run);
    span.end();
    return result;
  } catch (error) {
    endSpanWithError(span, error);
    throw error;
  }
}

export interface QueueFactoryOptions {
  /** The process's Redis settings (or one node's URL). */
  redis: RedisTarget;
  /** From queuePrefix(): one hash tag per service and namespace. */
  prefix: string;
  /** Merged over QUEUE_JOB_DEFAULTS for every queue this factory opens. */
  defaultJobOptions?: JobsOptions;
  /**
   * Commands issued in one event-loop turn leave in one socket write (ioredis auto-pipelining): for a
   * queue whose jobs are many and short, where one write per command costs more than the command.
   */
  autoPipelining?: boolean;
  /** Where the connection's state lines go: the process's one log unless given. */
  state?: RedisStateLog;
}

export interface QueueWorkerOptions {
  concurrency?: number;
  /** How long a job's lock lives without renewal: a worker killed mid-job gives its job back after about this long. */
  lockDurationMs?: number;
  /** How often stalled jobs (a dead worker's) are looked for. */
  stalledIntervalMs?: number;
  /** How many times a job may stall before it fails for good. */
  maxStalledCount?: number;
}

/** Jobs are idempotent and retried with backoff; finished jobs do not pile up in Redis. */
export const QUEUE_JOB_DEFAULTS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3600, count: 1000 },
};

/**
 * Opens a service's BullMQ queues and workers over one Redis connection (workers add their own blocking
 * one), with the service's hash-tag prefix and job defaults. Each worker parses its job's data with a
 * zod schema before the processor sees it. `close()` stops the workers first (letting running jobs
 * finish), then the queues, then the connection.
 */
export class QueueFactory {
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly tickers: NodeJS.Timeout[] = [];

  constructor(private readonly options: QueueFactoryOptions) {
    // BullMQ's blocking commands need no per-request retry limit.
    this.connection = watchRedis(
      new RevivingRedis({
        ...redisOptions(options.redis),
        maxRetriesPerRequest: null,
        enableReadyCheck: false,
        enableAutoPipelining: options.autoPipelining ?? false,
      }),
      'queues',
      options.state,
    );
    onScrape(() => this.readDepths());
  }

  /** Queue depth by state and the oldest waiting job's age, per queue this factory opened: read at each scrape. */
  private async readDepths(): Promise<void> {
    if (this.connection.status !== 'ready') return;
    const now = Date.now();
    await Promise.all(
      [...this.queues].map(async ([name, queue]) => {
        const counts = await queue.getJobCounts('waiting', 'delayed', 'active');
        for (const state of ['waiting', 'delayed', 'active'] as const) gatewayMetrics.queueDepth.set({ queue: name, state }, counts[state] ?? 0);
        const [oldest] = await queue.getJobs(['waiting'], 0, 0, true);
        gatewayMetrics.queueOldestAge.set({ queue: name }, oldest ? Math.max(0, (now - oldest.timestamp) / 1000) : 0);
      }),
    );
  }

  get prefix(): string {
    return this.options.prefix;
  }

  queue<T = unknown>(name: string): Queue<T> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: this.connection,
        prefix: this.options.prefix,
        defaultJobOptions: { ...QUEUE_JOB_DEFAULTS, ...this.options.defaultJobOptions },
      });
      // A job queued while a request is traced carries that trace to the worker that runs it.
      const add = queue.add.bind(queue);
      queue.add = ((jobName: string, data: unknown, opts?: JobsOptions) => add(jobName, withTrace(data), opts)) as typeof queue.add;
      const addBulk = queue.addBulk.bind(queue);
      queue.addBulk = ((jobs: { name: string; data: unknown; opts?: JobsOptions }[]) =>
        addBulk(jobs.map((job) => ({ ...job, data: withTrace(job.data) })))) as typeof queue.addBulk;
      queue.on('error', (error) => this.reportError(error));
      this.queues.set(name, queue);
    }
    return queue as unknown as Queue<T>;
  }

  worker<S extends z.ZodType>(
    name: string,
    schema: S,
    processor: (data: z.infer<S>, job: Job, token?: string) => Promise<unknown>,
    options: QueueWorkerOptions = {},
  ): Worker {
    const workerOptions: WorkerOptions = {
      connection: this.connection,
      prefix: this.options.prefix,
      concurrency: options.concurrency ?? 16,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 3,
    };
    // The lock token lets a processor move its own job (back to the delayed set, with BullMQ's DelayedError).
    const run = (job: Job, token?: string) => processor(schema.parse(job.data), job, token);
    const worker = new Worker(name, (job: Job, token?: string) => (tracingOn() ? traced(name, job, () => run(job, token)) : run(job, token)), workerOptions);
    // BullMQ reconnects and resumes the worker itself; its errors only tell the state log.
    worker.on('error', (error) => this.reportError(error));
    worker.on('failed', () => gatewayMetrics.queueFailures.inc({ queue: name }));
    this.workers.push(worker);
    return worker;
  }

  /**
   * A queue's or worker's error while the shared connection is down is that connection's fault, already
   * in the state log; one while it is up (a worker's own blocking connection catching up) says nothing new.
   */
  private reportError(error: Error): void {
    if (this.connection.status !== 'ready') (this.options.state ?? redisState).lost(this.connection, 'queues', error);
  }

  /**
   * A job on `name` once every `everyMs`, however many processes ask: each adds the job of the current
   * interval under one id (the first add wins, the others are the same job). No schedule is kept in Redis,
   * so a Redis that lost its last writes (a failover) or all of them (a restart without its file) still
   * gets the next one from every process that asks.
   */
  every(name: string, everyMs: number): void {
    const keepSeconds = Math.max(1, Math.ceil((2 * everyMs) / 1000));
    const add = () => {
      const interval = Math.floor(Date.now() / everyMs);
      // A Redis out of reach is in the state log already; the next interval tries again.
      this.queue(name)
        .add(name, {}, { jobId: `${name}-${interval}`, removeOnComplete: { age: keepSeconds }, removeOnFail: { age: keepSeconds } })
        .catch(() => undefined);
    };
    add();
    this.tickers.push(setInterval(add, everyMs).unref());
  }

  async close(): Promise<void> {
    for (const ticker of this.tickers.splice(0)) clearInterval(ticker);
    await Promise.allSettled(this.workers.map((worker) => worker.close()));
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    this.connection.disconnect();
  }
}
