import { gatewayMetrics } from '../observability/metrics';
import { Logger } from '@nestjs/common';
import { isRedisFault } from '../redis/redis-fault';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { BatchSource, SourceMessage } from './batch-source';

/** A message of the batch its handler could not write, with what to dead-letter of it. */
export interface BatchRefusal {
  /** Its position in the batch handed to the handler. */
  index: number;
  error: string;
  /** The refused part of the message, replayable as it is. */
  payload: string;
}

/** A refused message on its last delivery. */
export interface DeadLetterRecord {
  error: string;
  deliveries: number;
  payload: string;
}

export interface BatchConsumerOptions<T, M extends SourceMessage> {
  /** Names the consumer in its log lines. */
  name: string;
  source: BatchSource<M>;
  /** The contract's schema of one message. */
  schema: z.ZodType<T>;
  /**
   * Writes a batch. Throwing means nothing is known to be written (the database unreachable): the whole
   * batch is retried. A record the writer refuses on its own comes back as a refusal: its message alone
   * is retried, and dead-lettered on its last delivery. Must be idempotent: any message may come twice.
   */
  handle(batch: T[]): Promise<BatchRefusal[]>;
  /** Stores a refused message for an operator; it is acknowledged once this resolves. */
  deadLetter(record: DeadLetterRecord): Promise<void>;
  /** Messages taken per pull. */
  batch: number;
  /** After a pull shorter than `batch`, wait this long before the next: fewer, larger writes. */
  lingerMs: number;
  /** Each empty pull doubles the wait (from `lingerMs`), up to this. */
  idleWaitMs: number;
  /** A retried message comes again after this long; a failed pull is tried again after this long. */
  retryDelayMs: number;
  /** On this delivery a refused message is dead-lettered instead of retried. */
  maxDeliveries: number;
  logger?: Pick<Logger, 'error' | 'debug'>;
}

/**
 * The one loop of a durable consumer: pull a batch, parse each message with the contract's schema
 * (an unreadable one is discarded, never retried), hand the batch to a service, and acknowledge only
 * what it wrote. A batch that fails as a whole is retried after a delay; a refused message is retried
 * on its own and, on its last delivery, dead-lettered and acknowledged, so it never holds the others.
 * Between pulls it lingers (a short pull) or backs off (an empty one), so an idle stream costs a few
 * wake-ups a second and a busy one is written in large batches.
 */
export class BatchConsumer<T, M extends SourceMessage> {
  private readonly logger: Pick<Logger, 'error' | 'debug'>;
  private running = false;
  private stopping = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  /** Passes run one at a time: the loop's and a drain's never pull at once. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: BatchConsumerOptions<T, M>) {
    this.logger = options.logger ?? new Logger(options.name);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = new AbortController();
    this.loop = this.run();
  }

  /** Takes no new batch; resolves once the batch in hand is acknowledged or handed back. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopping.abort();
    this.options.source.stop?.();
    await this.loop;
  }

  /** Writes what the source holds now, until a pull comes back empty; returns how many messages it took. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const taken = await this.exclusive(() => this.pass());
      if (taken === 0) return total;
      total += taken;
    }
  }

  private async run(): Promise<void> {
    const { batch, lingerMs, idleWaitMs, retryDelayMs } = this.options;
    let wait = lingerMs;
    while (this.running) {
      let taken: number;
      try {
        taken = await this.exclusive(() => this.pass());
      } catch (error) {
        if (!this.running) break;
        this.logger.error(`${this.options.name}: pull failed, retrying in ${retryDelayMs} ms: ${(error as Error).message}`);
        await this.options.source
          .recover?.()
          .catch((recoverError: Error) => this.logger.error(`${this.options.name}: recovery failed: ${recoverError.message}`));
        await this.pause(retryDelayMs);
        continue;
      }
      wait = taken === 0 ? Math.min(wait * 2, idleWaitMs) : lingerMs;
      if (taken < batch && wait > 0) await this.pause(wait);
    }
  }

  private pause(ms: number): Promise<void> {
    return sleep(ms, undefined, { signal: this.stopping.signal }).catch(() => undefined);
  }

  private exclusive<R>(work: () => Promise<R>): Promise<R> {
    const next = this.turn.then(work);
    this.turn = next.catch(() => undefined);
    return next;
  }

  /** One pull and its write; returns how many messages it took. A failed pull throws. */
  private async pass(): Promise<number> {
    const { source, schema, name } = this.options;
    const messages = await source.pull(this.options.batch);
    if (messages.length === 0) return 0;
    const accepted: M[] = [];
    const bodies: T[] = [];
    const unreadable: M[] = [];
    for (const message of messages) {
      const parsed = schema.safeParse(message.body);
      if (parsed.success) {
        accepted.push(message);
        bodies.push(parsed.data);
      } else {
        this.logger.error(`${name}: discarding a malformed message: ${parsed.error.message}`);
        unreadable.push(message);
      }
    }
    if (unreadable.length > 0) await source.discard(unreadable);
    if (accepted.length === 0) return messages.length;
    try {
      await this.settle(accepted, await this.options.handle(bodies));
    } catch (error) {
      const line = `${name}: write failed, retrying the batch in ${this.options.retryDelayMs} ms: ${(error as Error).message}`;
      // A Redis fault is already in the process's Redis state log (lost, back): one line each way, not one per batch.
      if (isRedisFault(error)) this.logger.debug(line);
      else this.logger.error(line);
      await source.retry(accepted, this.options.retryDelayMs);
    }
    return messages.length;
  }

  /** Acknowledges the written messages; retries the refused ones, or dead-letters them on their last delivery. */
  private async settle(accepted: M[], refusals: BatchRefusal[]): Promise<void> {
    const { source, name, maxDeliveries, retryDelayMs } = this.options;
    const refused = new Map<M, BatchRefusal>();
    for (const refusal of refusals) {
      const message = accepted[refusal.index];
      if (message) refused.set(message, refusal);
    }
    const retried = new Set<M>();
    const failed = [...refused.keys()];
    const counts = failed.length > 0 ? await source.deliveries(failed) : [];
    for (const [i, message] of failed.entries()) {
      const delivered = counts[i];
      const { error, payload } = refused.get(message)!;
      if (delivered === undefined) continue;
      if (delivered >= maxDeliveries) {
        await this.options.deadLetter({ error, deliveries: delivered, payload });
        gatewayMetrics.deadLettered.inc({ consumer: name });
      } else {
        this.logger.error(`${name}: a record was refused, delivery ${delivered} of ${maxDeliveries}: ${error}`);
        retried.add(message);
      }
    }
    await source.ack(accepted.filter((message) => !retried.has(message)));
    if (retried.size > 0) await source.retry([...retried], retryDelayMs);
  }
}
