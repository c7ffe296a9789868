import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { queuePrefix } from '@gateway/platform';
import { CompletionHistoryRepository, HISTORY_DECAY } from './completion-history.repository';
import { bucketOf, quantileMs } from './poll-plan';

/** The completion histogram on the machine's real Redis, under a namespace of its own. */
describe('CompletionHistoryRepository', () => {
  const prefix = queuePrefix('media', `h${randomBytes(4).toString('hex')}.`);
  let redis: Redis;
  let history: CompletionHistoryRepository;
  const scope = { channelId: 'ch:1', model: 'sandbox-kling-std', kind: 'text2video' };

  beforeAll(() => {
    redis = new Redis('redis://127.0.0.1:6379');
    history = new CompletionHistoryRepository(redis, prefix);
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:poll-history:*`);
    if (keys.length > 0) await redis.del(...keys);
    history.onModuleDestroy();
  });

  it('has no history before any task ended', async () => {
    expect(await history.read({ ...scope, kind: 'never' })).toBeNull();
  });

  it('keeps the key under the service hash tag, with its scope in the name', () => {
    const key = history.keyOf(scope);
    expect(key.startsWith(`${prefix}:poll-history:`)).toBe(true);
    expect(key).toContain('ch%3A1');
  });

  it('counts each ended task in its bucket, decaying older ones', async () => {
    const s = { ...scope, kind: 'decay' };
    for (const d of [20_000, 20_000, 30_000]) await history.record(s, d);
    const weights = (await history.read(s))!;
    expect(weights[bucketOf(30_000)]).toBeCloseTo(1, 6);
    expect(weights[bucketOf(20_000)]).toBeCloseTo(HISTORY_DECAY + HISTORY_DECAY ** 2, 6);
    expect(await redis.pttl(history.keyOf(s))).toBeGreaterThan(0);
  });

  it('learns where completions fall from many ended tasks, updated atomically under concurrency', async () => {
    const s = { ...scope, kind: 'spread' };
    const durations = Array.from({ length: 60 }, (_, i) => 20_000 + (i % 20) * 1000);
    await Promise.all(durations.map((d) => history.record(s, d)));
    const weights = (await new CompletionHistoryRepository(redis, prefix).read(s))!;
    const total = weights.reduce((a, b) => a + b, 0);
    // 60 increments each decayed by the ones after it: the closed form of the sum, so none was lost to a race.
    expect(total).toBeCloseTo((1 - HISTORY_DECAY ** 60) / (1 - HISTORY_DECAY), 6);
    expect(quantileMs(weights, 0.1)!).toBeGreaterThan(15_000);
    expect(quantileMs(weights, 0.1)!).toBeLessThan(25_000);
    expect(quantileMs(weights, 0.95)!).toBeLessThan(50_000);
  });
});
