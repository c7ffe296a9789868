import { BillingClient, ProfileCache, WalletKeys, WalletStore } from '@gateway/billing';
import type { CatalogModel, ReplyNote, RequestCache, TenantCaller, UsageEvent } from '@gateway/contracts';
import { connectNats, gatewayMetrics, NatsBus } from '@gateway/platform';
import { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MeteredStream } from '../usage/metered-stream';
import { UsageMeter } from '../usage/usage-meter';
import { CacheIndexFollower } from './cache-index-follower';
import { replayStream } from './cache-replay';
import { LocalCacheIndex } from './local-cache-index';
import { ResponseCacheService, type CachePlan, type CacheRequest } from './response-cache.service';
import { ResponseCacheStore } from './response-cache.store';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ON: RequestCache = { read: true, store: true, ttlSeconds: 60, sampled: false };
const MODEL: CatalogModel = {
  id: 'sandbox-gpt',
  capability: 'chat',
  defaultMaxTokens: 100,
  prices: { inputPerMTok: '1000000', outputPerMTok: '2000000', perImage: '0', perSecond: '0', perTask: '0', cacheHitPerMTok: '500000' },
};
const ANSWER = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'sandbox-gpt',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

describe('the response cache in the pipeline (real Redis, real billing holds)', () => {
  const prefix = `rcs${randomBytes(4).toString('hex')}.`;
  const redis = new Redis(REDIS_URL, { enableAutoPipelining: true });
  const store = new ResponseCacheStore(redis, ResponseCacheStore.namespaceOf(prefix), { tenantMaxBytes: 100_000, entryMaxBytes: 10_000 });
  const wallet = new WalletStore(redis, WalletKeys.fromPrefix(prefix));
  let connection: NatsConnection;
  let cache: ResponseCacheService;
  const followers: CacheIndexFollower[] = [];
  const following = (bus: NatsBus, on: ResponseCacheStore) => {
    const follower = new CacheIndexFollower(bus, on, new LocalCacheIndex({ maxEntries: 10_000, maxValueBytes: 1_000_000 }));
    followers.push(follower);
    void follower.follow();
    return follower;
  };

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'response-cache-spec');
    const bus = new NatsBus(connection, prefix);
    cache = new ResponseCacheService(store, new BillingClient(wallet, bus, new ProfileCache(bus), { enabled: true, holdTtlMs: 60_000 }), following(bus, store));
  });

  afterAll(async () => {
    for (const follower of followers) follower.close();
    const keys = [...(await redis.keys(`{rc:${ResponseCacheStore.namespaceOf(prefix)}:*`)), ...(await redis.keys(`${wallet.keys.tag}*`))];
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await connection.drain();
  });

  const request = (overrides: Partial<CacheRequest> = {}): CacheRequest & { note: ReplyNote } => ({
    cache: ON,
    tenantId: 't1',
    operation: 'oaic.chat',
    model: 'sandbox-gpt',
    body: { model: 'sandbox-gpt', temperature: 0, messages: [{ role: 'user', content: 'hi' }] },
    stream: false,
    note: {},
    ...overrides,
  });

  /** Lets the store's writes land: flushed now, then the next command on the connection runs after them. */
  const settled = async (service = cache) => {
    await service.flush();
    await redis.ping();
  };

  /** A stream's answer is stored after it is decoded, a few turns after its end. */
  const eventuallyFound = async (plan: CachePlan) => {
    for (let i = 0; i < 100 && !(await store.get(plan.tenantId, plan.hash)); i++) await sleep(10);
  };

  it('plans nothing, and tells nothing, when the cache is off', () => {
    const off = request({ cache: undefined });
    expect(cache.plan(off)).toBeNull();
    expect(off.note.cache).toBeUndefined();
  });

  it('misses, stores the whole answer, then hits for the same tenant only', async () => {
    const first = request();
    const plan = cache.plan(first)!;
    expect(await cache.lookup(plan, first.note)).toBeNull();
    expect(first.note.cache).toBe('miss');
    cache.keep(plan, ANSWER, { prompt: 3, completion: 2 });
    await settled();

    const again = request({ body: { messages: [{ role: 'user', content: 'hi' }], temperature: 0, model: 'sandbox-gpt', stream: true, user: 'u' } });
    expect(await cache.lookup(cache.plan(again)!, again.note)).toEqual({ answer: ANSWER, prompt: 3, completion: 2, replay: null });
    expect(again.note.cache).toBe('hit');

    const other = request({ tenantId: 't2' });
    expect(await cache.lookup(cache.plan(other)!, other.note)).toBeNull();
    expect(other.note.cache).toBe('miss');
  });

  it('keeps sampled requests and no-store out (bypass), unless the tenant caches sampled ones; streamed completions are planned', () => {
    const sampled = request({ body: { model: 'sandbox-gpt', messages: [] } });
    expect(cache.plan(sampled)).toBeNull();
    expect(sampled.note.cache).toBe('bypass');
    expect(cache.plan(request({ cache: { ...ON, sampled: true }, body: { model: 'sandbox-gpt', messages: [] } }))).not.toBeNull();
    const noStore = request({ cache: { ...ON, read: false, store: false } });
    expect(cache.plan(noStore)).toBeNull();
    expect(noStore.note.cache).toBe('bypass');
    const completions = request({ operation: 'oaic.completions', stream: true, body: { prompt: 'x', temperature: 0 } });
    expect(cache.plan(completions)).toMatchObject({ operation: 'oaic.completions', stream: true });
  });

  it('stores nothing for a read_only key, and reads nothing under no-cache', async () => {
    const body = { model: 'sandbox-gpt', temperature: 0, messages: [{ role: 'user', content: 'read only' }] };
    cache.keep(cache.plan(request({ body, cache: { ...ON, store: false } }))!, ANSWER, { prompt: 1, completion: 1 });
    await settled();
    expect(await cache.lookup(cache.plan(request({ body }))!, {})).toBeNull();

    cache.keep(cache.plan(request({ body }))!, ANSWER, { prompt: 1, completion: 1 });
    await settled();
    const noCache = request({ body, cache: { ...ON, read: false } });
    expect(await cache.lookup(cache.plan(noCache)!, noCache.note)).toBeNull();
    expect(noCache.note.cache).toBe('bypass');
  });

  it('stores a live stream that ended normally as the whole answer, and none that failed or lost its client', async () => {
    const sse = replayStream('oaic', ANSWER, 'sandbox-gpt');
    const frames = async function* (fail: boolean) {
      yield Buffer.from(sse.slice(0, 40));
      if (fail) throw new Error('upstream broke');
      yield Buffer.from(sse.slice(40));
    };
    const drain = async (source: AsyncGenerator<Uint8Array>) => {
      let text = '';
      for await (const chunk of source) text += Buffer.from(chunk).toString();
      return text;
    };
    const asked = (content: string) => request({ stream: true, body: { model: 'sandbox-gpt', temperature: 0, messages: [{ role: 'user', content }] } });
    const tokens = () => ({ prompt: 3, completion: 2 });

    const live = cache.plan(asked('streamed'))!;
    expect(await drain(cache.keepStream(live, frames(false), tokens, new AbortController().signal))).toBe(sse);
    await eventuallyFound(live);
    const stored = await cache.lookup(cache.plan(asked('streamed'))!, {});
    expect(stored).toMatchObject({
      prompt: 3,
      completion: 2,
      answer: { object: 'chat.completion', model: 'sandbox-gpt', usage: { prompt_tokens: 3, completion_tokens: 2 } },
    });
    expect((stored!.answer as typeof ANSWER).choices[0]!.message.content).toBe('Hi.');

    const broken = cache.plan(asked('broken'))!;
    await expect(drain(cache.keepStream(broken, frames(true), tokens, new AbortController().signal))).rejects.toThrow('upstream broke');
    const abort = new AbortController();
    abort.abort();
    const left = cache.plan(asked('left'))!;
    await drain(cache.keepStream(left, frames(false), tokens, abort.signal));
    await settled();
    expect(await cache.lookup(broken, {})).toBeNull();
    expect(await cache.lookup(left, {})).toBeNull();
  });

  it('counts outcomes by model, the bytes stored and the evictions that keep a tenant under its cap', async () => {
    const count = async (outcome: string) =>
      (await gatewayMetrics.responseCacheLookups.get()).values.find((v) => v.labels.outcome === outcome && v.labels.model === 'metered-model')?.value ?? 0;
    const small = new ResponseCacheStore(redis, ResponseCacheStore.namespaceOf(prefix), { tenantMaxBytes: 700, entryMaxBytes: 700 });
    const bus = new NatsBus(connection, prefix);
    const service = new ResponseCacheService(
      small,
      new BillingClient(wallet, bus, new ProfileCache(bus), { enabled: false, holdTtlMs: 1 }),
      following(bus, small),
    );
    const evictions = async () => (await gatewayMetrics.responseCacheEvictions.get()).values.reduce((sum, v) => sum + v.value, 0);
    const [misses, hits, evicted] = [await count('miss'), await count('hit'), await evictions()];
    const ask = (n: number) => request({ tenantId: 'metered', model: 'metered-model', body: { temperature: 0, n } });
    for (let n = 0; n < 3; n++) {
      const plan = service.plan(ask(n))!;
      await service.lookup(plan, {});
      service.keep(plan, { text: 'x'.repeat(250) }, { prompt: 1, completion: 1 });
      await settled(service);
    }
    await service.lookup(service.plan(ask(2))!, {});
    expect([(await count('miss')) - misses, (await count('hit')) - hits]).toEqual([3, 1]);
    expect(await evictions()).toBeGreaterThan(evicted);
    const bytes = (await gatewayMetrics.responseCacheBytes.get()).values[0]!.value;
    expect(bytes).toBe(await small.tenantBytes('metered'));
  });

  it('serves a hit holding only its price, recorded as cache_hit with the stored tokens; a stream replays it', async () => {
    const tenantId = randomUUID();
    await wallet.credit(tenantId, 0n, 1_000_000n);
    const events: UsageEvent[] = [];
    const serve = async (stream: boolean) => {
      const caller: TenantCaller = { requestId: randomUUID(), tenantId, keyId: 'k1', keyKind: 'payg', route: 'oaic.chat' };
      const metered = new MeteredStream(new UsageMeter(caller, 'oaic', 'sandbox-gpt'), { record: (event) => events.push(event) });
      const holds = await wallet.holdCount();
      const answer = await cache.serve(
        { answer: ANSWER, prompt: 3_000, completion: 1_000, replay: stream ? replayStream('oaic', ANSWER, 'sandbox-gpt') : null },
        { family: 'oaic', caller, model: MODEL, modelId: 'sandbox-gpt', stream, metered },
      );
      expect(await wallet.holdCount()).toBe(holds + 1);
      return answer;
    };
    expect(await serve(false)).toEqual(ANSWER);
    const streamed = (await serve(true)) as AsyncGenerator<Uint8Array>;
    let text = '';
    for await (const chunk of streamed) text += Buffer.from(chunk).toString();
    expect(text).toContain('"content":"Hi."');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    // 4,000 tokens at 500,000 micros per million: 2,000 micros each.
    expect(events.map((e) => [e.kind, e.outcome, e.status, e.promptTokens, e.completionTokens, e.costMicros])).toEqual([
      ['cache_hit', 'cache_hit', 200, 3_000, 1_000, '2000'],
      ['cache_hit', 'cache_hit', 200, 3_000, 1_000, '2000'],
    ]);
  });
});
