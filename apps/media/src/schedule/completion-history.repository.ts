import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { HISTORY_EDGES_MS, bucketOf } from './poll-plan';

export const HISTORY_REDIS = Symbol('HISTORY_REDIS');
export const HISTORY_KEY_PREFIX = Symbol('HISTORY_KEY_PREFIX');

/** What tasks are alike in how long they take: the same channel, model and kind of task. */
export interface HistoryScope {
  channelId: string;
  model: string;
  kind: string;
}

/** Each task that ends scales the old weights down by this much: about the last few hundred tasks count. */
export const HISTORY_DECAY = 0.99;
/** A histogram no task has touched for this long is dropped. */
const HISTORY_TTL_MS = 14 * 24 * 3600 * 1000;
/** A histogram read is reused this long in the process (a create and a poll read it often). */
const READ_CACHE_MS = 1000;

// Decays every bucket, adds one to the task's, and renews the key's life: one atomic step.
const RECORD_SCRIPT = `
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local w = tonumber(fields[i + 1]) * tonumber(ARGV[2])
  if w < 0.001 then redis.call('HDEL', KEYS[1], fields[i]) else redis.call('HSET', KEYS[1], fields[i], tostring(w)) end
end
redis.call('HINCRBYFLOAT', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/**
 * The recent times to completion of tasks, a small decaying histogram per channel, model and kind in
 * one Redis hash (field = bucket index, value = weight), under the media service's hash tag.
 */
@Injectable()
export class CompletionHistoryRepository implements OnModuleDestroy {
  private readonly cache = new Map<string, { at: number; weights: number[] | null }>();

  constructor(
    @Inject(HISTORY_REDIS) private readonly redis: Redis,
    @Inject(HISTORY_KEY_PREFIX) private readonly prefix: string,
  ) {}

  keyOf(scope: HistoryScope): string {
    return `${this.prefix}:poll-history:${encodeURIComponent(scope.channelId)}:${encodeURIComponent(scope.model)}:${scope.kind}`;
  }

  async record(scope: HistoryScope, durationMs: number): Promise<void> {
    const key = this.keyOf(scope);
    await this.redis.eval(RECORD_SCRIPT, 1, key, String(bucketOf(Math.max(0, durationMs))), String(HISTORY_DECAY), String(HISTORY_TTL_MS));
    this.cache.delete(key);
  }

  /** Weights per bucket, or null when no task like it has ended lately. */
  async read(scope: HistoryScope): Promise<number[] | null> {
    const key = this.keyOf(scope);
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.at < READ_CACHE_MS) return cached.weights;
    const fields = await this.redis.hgetall(key);
    const weights = HISTORY_EDGES_MS.map(() => 0);
    let any = false;
    for (const [field, value] of Object.entries(fields)) {
      const index = Number(field);
      const weight = Number(value);
      if (Number.isInteger(index) && index >= 0 && index < weights.length && Number.isFinite(weight) && weight > 0) {
        weights[index] = weight;
        any = true;
      }
    }
    const result = any ? weights : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { at: Date.now(), weights: result });
    return result;
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
