import type { KeyContext } from '@gateway/contracts';
import { loadEnv, type NatsBus } from '@gateway/platform';
import { EdgeEnv } from '../config/edge-env';
import { hashApiKey, KeyResolverService } from './key-resolver.service';

function context(tenantId: string, expiresAt: string | null = null): KeyContext {
  return {
    keyId: `k-${tenantId}`,
    keyName: 'n',
    kind: 'payg',
    tenantId,
    tenantSlug: tenantId,
    billing: 'payg',
    expiresAt,
    expiredBy: expiresAt === null ? null : 'subscription',
    models: [],
    budgets: [],
    featureControls: {},
  };
}

/** A bus whose key lookups answer from a table, counting them. */
function accounts(keys: Record<string, KeyContext>) {
  const lookups: string[] = [];
  const request = jest.fn(async (_subject: string, payload: { keyHash: string }) => {
    lookups.push(payload.keyHash);
    return Object.entries(keys).find(([key]) => hashApiKey(key) === payload.keyHash)?.[1] ?? null;
  });
  return { bus: { request } as unknown as NatsBus, lookups };
}

describe('KeyResolverService', () => {
  afterEach(() => jest.useRealTimers());

  it('resolves a key once, then from memory, and remembers an unknown key', async () => {
    const { bus, lookups } = accounts({ 'sk-good': context('t1') });
    const resolver = new KeyResolverService(bus, loadEnv(EdgeEnv, {}));
    const first = await Promise.all([resolver.resolve('sk-good'), resolver.resolve('sk-good')]);
    expect(first).toEqual([
      { status: 'valid', context: context('t1') },
      { status: 'valid', context: context('t1') },
    ]);
    await expect(resolver.resolve('sk-bad')).resolves.toEqual({ status: 'unknown' });
    expect(resolver.resolveCached('sk-good')).toEqual({ status: 'valid', context: context('t1') });
    expect(resolver.resolveCached('sk-bad')).toEqual({ status: 'unknown' });
    expect(resolver.resolveCached('sk-never-seen')).toBeNull();
    expect(lookups).toEqual([hashApiKey('sk-good'), hashApiKey('sk-bad')]);
  });

  it('turns a cached key expired when its subscription ends, without asking accounts again', async () => {
    jest.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
    const { bus, lookups } = accounts({ 'sk-sub': context('t1', '2026-01-01T00:00:01Z') });
    const resolver = new KeyResolverService(bus, loadEnv(EdgeEnv, {}));
    await expect(resolver.resolve('sk-sub')).resolves.toMatchObject({ status: 'valid' });
    jest.setSystemTime(Date.parse('2026-01-01T00:00:01Z'));
    const expired = { status: 'expired', by: 'subscription', at: '2026-01-01T00:00:01Z' };
    await expect(resolver.resolve('sk-sub')).resolves.toEqual(expired);
    expect(resolver.resolveCached('sk-sub')).toEqual(expired);
    expect(lookups).toHaveLength(1);
  });

  it('holds unknown keys within NEGATIVE_KEY_CACHE_MAX_ENTRIES, apart from known ones', async () => {
    const { bus } = accounts({ 'sk-good': context('t1') });
    const resolver = new KeyResolverService(bus, loadEnv(EdgeEnv, { KEY_CACHE_MAX_ENTRIES: '5', NEGATIVE_KEY_CACHE_MAX_ENTRIES: '3' }));
    await resolver.resolve('sk-good');
    for (let i = 0; i < 20; i++) await resolver.resolve(`sk-guess-${i}`);
    expect(resolver.cache.size).toBe(4);
    expect(resolver.resolveCached('sk-good')).toMatchObject({ status: 'valid' });
  });
});
