import type { KeyContext } from '@gateway/contracts';
import { KeyCache } from './key-cache';

function context(tenantId: string, expiresAt: string | null = null): KeyContext {
  return { keyId: `k-${tenantId}`, keyName: 'n', kind: 'payg', tenantId, tenantSlug: tenantId, billing: 'payg', expiresAt, featureControls: {} };
}

describe('KeyCache', () => {
  let now = 1_000_000;
  const cache = () => new KeyCache(60_000, 5_000, () => now);

  it('hits until the TTL passes', () => {
    const c = cache();
    c.store('h1', context('t1'));
    expect(c.lookup('h1')).toEqual({ hit: true, context: context('t1'), expired: false });
    now += 60_000;
    expect(c.lookup('h1')).toEqual({ hit: false });
    expect(c.size).toBe(0);
  });

  it('remembers unknown keys for the negative TTL only', () => {
    const c = cache();
    c.store('bad', null);
    expect(c.lookup('bad')).toEqual({ hit: true, context: null, expired: false });
    now += 5_000;
    expect(c.lookup('bad').hit).toBe(false);
  });

  it('flags a cached context whose key expired', () => {
    const c = cache();
    c.store('h', context('t', new Date(now + 1000).toISOString()));
    expect(c.lookup('h')).toMatchObject({ hit: true, expired: false });
    now += 1000;
    expect(c.lookup('h')).toMatchObject({ hit: true, expired: true });
  });

  it('drops keys by hash and by tenant', () => {
    const c = cache();
    c.store('a1', context('a'));
    c.store('a2', context('a'));
    c.store('b1', context('b'));
    c.dropKeys(['b1']);
    expect(c.lookup('b1').hit).toBe(false);
    c.dropTenants(['a']);
    expect(c.lookup('a1').hit).toBe(false);
    expect(c.lookup('a2').hit).toBe(false);
    expect(c.size).toBe(0);
  });

  it('re-indexes a key that moves to another tenant', () => {
    const c = cache();
    c.store('h', context('a'));
    c.store('h', context('b'));
    c.dropTenants(['a']);
    expect(c.lookup('h').hit).toBe(true);
    c.dropTenants(['b']);
    expect(c.lookup('h').hit).toBe(false);
  });
});

describe('KeyCache bounds', () => {
  const now = () => 1_000_000;
  const context = (tenantId: string): KeyContext => ({ keyId: `k-${tenantId}`, keyName: 'n', kind: 'payg', tenantId, tenantSlug: tenantId, billing: 'payg', expiresAt: null, featureControls: {} });

  it('holds at most the configured number of unknown keys, and they never evict known ones', () => {
    const c = new KeyCache(60_000, 5_000, now, { maxEntries: 3, maxNegativeEntries: 10 });
    c.store('good', context('t'));
    for (let i = 0; i < 1000; i++) c.store(`unknown-${i}`, null);
    expect(c.size).toBe(11);
    expect(c.lookup('good')).toMatchObject({ hit: true });
    expect(c.lookup('unknown-999')).toMatchObject({ hit: true, context: null });
    expect(c.lookup('unknown-0').hit).toBe(false);
  });

  it('evicts the least recently used known key and unindexes it', () => {
    const c = new KeyCache(60_000, 5_000, now, { maxEntries: 2, maxNegativeEntries: 2 });
    c.store('a', context('a'));
    c.store('b', context('b'));
    c.lookup('a');
    c.store('c', context('c'));
    expect(c.lookup('b').hit).toBe(false);
    expect(c.lookup('a').hit).toBe(true);
    c.dropTenants(['a', 'c']);
    expect(c.size).toBe(0);
  });
});
