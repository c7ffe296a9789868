import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { StatementBatcher } from '@gateway/db';
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

// The ends of n tasks in one atomic step, as n single ends in turn would leave it: every bucket decayed
// n times, the i-th task's bucket (ARGV[2 + i]) given 1 decayed by the n - i ends after it; the key's life renewed.
const RECORD_SCRIPT = `
local decay = tonumber(ARGV[1])
local n = #ARGV - 2
local scale = decay ^ n
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local w = tonumber(fields[i + 1]) * scale
  if w < 0.001 then redis.call('HDEL', KEYS[1], fields[i]) else redis.call('HSET', KEYS[1], fields[i], tostring(w)) end
end
for i = 3, #ARGV do redis.call('HINCRBYFLOAT', KEYS[1], ARGV[i], tostring(decay ^ (#ARGV - i))) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

type HistoryRedis = Redis & { recordCompletions(key: string, decay: string, ttlMs: string, ...buckets: string[]): Promise<number> };

/**
 * The recent times to completion of tasks, a small decaying histogram per channel, model and kind in
 * one Redis hash (field = bucket index, value = weight), under the media service's hash tag.
 */
@Injectable()
export class CompletionHistoryRepository implements OnModuleDestroy {
  private readonly cache = new Map<string, { at: number; weights: Promise<number[] | null> }>();
  /** The ends of one event-loop turn, one script call per histogram. */
  private readonly records = new StatementBatcher((ends: { key: string; bucket: number }[]) => this.recordBatch(ends));
  private readonly redis: HistoryRedis;

  constructor(
    @Inject(HISTORY_REDIS) redis: Redis,
    @Inject(HISTORY_KEY_PREFIX) private readonly prefix: string,
  ) {
    redis.defineCommand('recordCompletions', { numberOfKeys: 1, lua: RECORD_SCRIPT });
    this.redis = redis as HistoryRedis;
  }

  keyOf(scope: HistoryScope): string {
    return `${this.prefix}:poll-history:v2:${encodeURIComponent(scope.channelId)}:${encodeURIComponent(scope.model)}:${scope.kind}`;
  }

  async record(scope: HistoryScope, durationMs: number): Promise<void> {
    await this.records.call({ key: this.keyOf(scope), bucket: bucketOf(Math.max(0, durationMs)) });
  }

  /** Weights per bucket, or null when no task like it has ended lately; one read at a time per histogram. */
  async read(scope: HistoryScope): Promise<number[] | null> {
    const key = this.keyOf(scope);
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.at < READ_CACHE_MS) return cached.weights;
    if (this.cache.size > 10_000) this.cache.clear();
    const weights = this.fetch(key);
    this.cache.set(key, { at: Date.now(), weights });
    weights.catch(() => this.cache.get(key)?.weights === weights && this.cache.delete(key));
    return weights;
  }

  private async fetch(key: string): Promise<number[] | null> {
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
    return any ? weights : null;
  }

  private async recordBatch(ends: { key: string; bucket: number }[]): Promise<void[]> {
    const byKey = new Map<string, string[]>();
    for (const { key, bucket } of ends) {
      const buckets = byKey.get(key) ?? [];
      buckets.push(String(bucket));
      byKey.set(key, buckets);
    }
    await Promise.all(
      [...byKey].map(async ([key, buckets]) => {
        await this.redis.recordCompletions(key, String(HISTORY_DECAY), String(HISTORY_TTL_MS), ...buckets);
        this.cache.delete(key);
      }),
    );
    return ends.map(() => undefined);
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
