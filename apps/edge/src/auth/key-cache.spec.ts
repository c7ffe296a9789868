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
