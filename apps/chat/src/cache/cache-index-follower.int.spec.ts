import { BillingClient, ProfileCache, WalletKeys, WalletStore } from '@gateway/billing';
import type { RequestCache } from '@gateway/contracts';
import { connectNats, NatsBus } from '@gateway/platform';
import { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CacheIndexFollower } from './cache-index-follower';
import { LocalCacheIndex } from './local-cache-index';
import { ResponseCacheHandler } from './response-cache.handler';
import { ResponseCacheService, type CacheRequest } from './response-cache.service';
import { ResponseCacheStore } from './response-cache.store';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ON: RequestCache = { read: true, store: true, ttlSeconds: 60, sampled: false };
const ANSWER = { id: 'chatcmpl-1', object: 'chat.completion', choices: [] };

/** One chat process: its own NATS connection, index and follower, on the deployment's Redis and subject prefix. */
interface Process {
  connection: NatsConnection;
  store: ResponseCacheStore;
  follower: CacheIndexFollower;
  cache: ResponseCacheService;
  handler: ResponseCacheHandler;
}

describe('each chat process follows the response cache in memory (real Redis, real NATS)', () => {
  const prefix = `rci${randomBytes(4).toString('hex')}.`;
  const namespace = ResponseCacheStore.namespaceOf(prefix);
  const redis = new Redis(REDIS_URL, { enableAutoPipelining: true });
  const processes: Process[] = [];

  const start = async (maxEntries = 10_000): Promise<Process> => {
    const connection = await connectNats('nats://127.0.0.1:4222', 'cache-index-spec');
    const bus = new NatsBus(connection, prefix);
    const store = new ResponseCacheStore(redis, namespace, { tenantMaxBytes: 100_000, entryMaxBytes: 10_000 });
    const follower = new CacheIndexFollower(bus, store, new LocalCacheIndex({ maxEntries, maxValueBytes: 100_000 }));
    await follower.follow();
    const billing = new BillingClient(new WalletStore(redis, WalletKeys.fromPrefix(prefix)), bus, new ProfileCache(bus), { enabled: false, holdTtlMs: 1 });
    const started = {
      connection,
      store,
      follower,
      cache: new ResponseCacheService(store, billing, follower),
      handler: new ResponseCacheHandler(store, follower),
    };
    processes.push(started);
    return started;
  };

  const request = (tenantId: string, content: string): CacheRequest => ({
    cache: ON,
    tenantId,
    operation: 'oaic.chat',
    model: 'sandbox-gpt',
    body: { model: 'sandbox-gpt', temperature: 0, messages: [{ role: 'user', content }] },
    stream: false,
    note: {},
  });

  /** Stores an answer from `on` and waits until `seen` has heard of it. */
  const storeAndSpread = async (on: Process, seen: Process, tenantId: string, content: string) => {
    const plan = on.cache.plan(request(tenantId, content))!;
    on.cache.keep(plan, ANSWER, { prompt: 1, completion: 1 });
    for (let i = 0; i < 100 && seen.follower.index.presence(tenantId, plan.hash) !== 'present'; i++) await sleep(10);
    return plan;
  };

  afterAll(async () => {
    for (const p of processes) {
      await p.cache.onModuleDestroy();
      p.follower.close();
      await p.connection.drain();
    }
    const keys = await redis.keys(`{rc:${namespace}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('knows at start the entries stored before it, and finds them', async () => {
    const first = await start();
    const plan = first.cache.plan(request('t1', 'before'))!;
    first.cache.keep(plan, ANSWER, { prompt: 1, completion: 1 });
    await first.cache.flush();
    const later = await start();
    expect(later.follower.index.answering).toBe(true);
    expect(later.follower.index.presence('t1', plan.hash)).toBe('present');
    expect(await later.cache.lookup(later.cache.plan(request('t1', 'before'))!, {})).toEqual({ answer: ANSWER, prompt: 1, completion: 1, replay: null });
  });

  it("hits on another process's stored answer, and decides a miss without reading Redis", async () => {
    const [a, b] = [await start(), await start()];
    const plan = await storeAndSpread(a, b, 't2', 'shared');
    const reads = jest.spyOn(b.store, 'get');
    const note: CacheRequest['note'] = {};
    expect(await b.cache.lookup(plan, note)).toEqual({ answer: ANSWER, prompt: 1, completion: 1, replay: null });
    expect([note.cache, reads.mock.calls.length]).toEqual(['hit', 1]);
    const servedAt = Date.now();
    expect(await b.cache.lookup(plan, {})).not.toBeNull();
    expect(reads.mock.calls.length).toBe(1);
    // Served from memory, its read is still marked in the store's LRU order.
    await b.cache.flush();
    expect(Number(await redis.zscore(`{rc:${namespace}:t2}:lru`, plan.hash))).toBeGreaterThanOrEqual(servedAt);
    const missed: CacheRequest['note'] = {};
    expect(await b.cache.lookup(b.cache.plan(request('t2', 'never asked'))!, missed)).toBeNull();
    expect([missed.cache, reads.mock.calls.length]).toEqual(['miss', 1]);
  });

  it("a purge on one process empties every process's index and answers of that tenant only", async () => {
    const [a, b] = [await start(), await start()];
    const gone = await storeAndSpread(a, b, 't3', 'purged');
    const kept = await storeAndSpread(a, b, 't4', 'kept');
    expect(await b.cache.lookup(gone, {})).not.toBeNull();
    expect(await a.handler.purge({ tenantId: 't3' })).toEqual({ purged: 1 });
    for (let i = 0; i < 100 && b.follower.index.presence('t3', gone.hash) !== 'absent'; i++) await sleep(10);
    expect(await b.cache.lookup(gone, {})).toBeNull();
    expect(await a.cache.lookup(gone, {})).toBeNull();
    expect(await b.cache.lookup(kept, {})).not.toBeNull();
  });

  it('past its entry bound, a process reads Redis for every lookup and still finds what others store', async () => {
    const [a, bounded] = [await start(), await start(0)];
    const plan = a.cache.plan(request('t5', 'bounded'))!;
    a.cache.keep(plan, ANSWER, { prompt: 1, completion: 1 });
    await a.cache.flush();
    const reads = jest.spyOn(bounded.store, 'get');
    expect(await bounded.cache.lookup(bounded.cache.plan(request('t5', 'not there'))!, {})).toBeNull();
    expect(await bounded.cache.lookup(plan, {})).not.toBeNull();
    expect(reads.mock.calls.length).toBe(2);
  });
});
