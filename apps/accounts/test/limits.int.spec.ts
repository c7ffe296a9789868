import { ApplyResult, CacheSetReply, KeyCreated, KeyResolveReply, SUBJECTS } from '@gateway/contracts';
import { createHash } from 'node:crypto';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let h: AccountsHarness;

beforeAll(async () => {
  h = await startAccountsHarness('accounts_limits');
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

describe('rate limits from config apply to the key context', () => {
  it('stores tenant limits, gives each key the per-key default, and keeps them when a later file omits them', async () => {
    const file = { tenants: [{ slug: 'limited', limits: { rpm: 5, tpm: 1000, perKey: { concurrency: 1 } } }] };
    expect((await h.bus.request(S.config.apply, file, ApplyResult)).created).toBe(1);
    expect(await h.bus.request(S.config.apply, file, ApplyResult)).toMatchObject({ created: 0, updated: 0 });
    const key = await h.bus.request(S.keys.create, { tenant: 'limited' }, KeyCreated);
    const resolve = () => h.bus.request(S.keys.resolve, { keyHash: sha256(key.key) }, KeyResolveReply);
    expect((await resolve())?.limits).toEqual({ key: { concurrency: 1 }, tenant: { rpm: 5, tpm: 1000 } });

    await h.bus.request(S.config.apply, { tenants: [{ slug: 'limited' }] }, ApplyResult);
    expect((await resolve())?.limits).toEqual({ key: { concurrency: 1 }, tenant: { rpm: 5, tpm: 1000 } });

    const changed = await h.bus.request(S.config.apply, { tenants: [{ slug: 'limited', limits: { rpm: 7 } }] }, ApplyResult);
    expect(changed.changes).toEqual(['tenant limited: updated (limits)']);
    expect((await resolve())?.limits).toEqual({ key: null, tenant: { rpm: 7 } });
  });

  it('gives a key without any limits no limits field, so the edge skips limiting', async () => {
    await h.bus.request(S.config.apply, { tenants: [{ slug: 'free' }] }, ApplyResult);
    const key = await h.bus.request(S.keys.create, { tenant: 'free' }, KeyCreated);
    const context = await h.bus.request(S.keys.resolve, { keyHash: sha256(key.key) }, KeyResolveReply);
    expect(context).not.toBeNull();
    expect(context!.limits).toBeUndefined();
  });
});

describe('response cache settings reach the key context', () => {
  const resolve = (key: KeyCreated) => h.bus.request(S.keys.resolve, { keyHash: sha256(key.key) }, KeyResolveReply);

  it("applies a tenant's cache from the config file, keeps it when a later file omits it, and gives keys of a tenant without one none", async () => {
    const file = { tenants: [{ slug: 'cached', cache: { mode: 'read_write', ttlSeconds: 120 } }, { slug: 'uncached' }] };
    await h.bus.request(S.config.apply, file, ApplyResult);
    const cached = await h.bus.request(S.keys.create, { tenant: 'cached' }, KeyCreated);
    const uncached = await h.bus.request(S.keys.create, { tenant: 'uncached' }, KeyCreated);
    expect((await resolve(cached))?.cache).toEqual({ mode: 'read_write', ttlSeconds: 120, sampled: false });
    expect((await resolve(uncached))?.cache).toBeUndefined();

    await h.bus.request(S.config.apply, { tenants: [{ slug: 'cached' }] }, ApplyResult);
    expect((await resolve(cached))?.cache?.mode).toBe('read_write');
    const changed = await h.bus.request(S.config.apply, { tenants: [{ slug: 'cached', cache: { mode: 'off' } }] }, ApplyResult);
    expect(changed.changes).toEqual(['tenant cached: updated (cache)']);
    expect((await resolve(cached))?.cache).toBeUndefined();
  });

  it('lets a key narrow its tenant, never widen it, and drops the changed keys from the edges', async () => {
    await h.bus.request(S.config.apply, { tenants: [{ slug: 'narrowed' }] }, ApplyResult);
    const key = await h.bus.request(S.keys.create, { tenant: 'narrowed' }, KeyCreated);
    const tenantOn = await h.bus.request(S.cache.set, { tenant: 'narrowed', mode: 'read_write', ttlSeconds: 600, sampled: true }, CacheSetReply);
    expect(tenantOn.effective).toEqual({ mode: 'read_write', ttlSeconds: 600, sampled: true });
    const tenantId = (await h.nextEvent((e) => e.tenantIds.length === 1)).tenantIds[0]!;
    expect(tenantId).toMatch(/^[0-9a-f-]{36}$/);

    const narrowed = await h.bus.request(S.cache.set, { tenant: 'narrowed', key: key.id, mode: 'read_only', ttlSeconds: 60 }, CacheSetReply);
    expect(narrowed.effective).toEqual({ mode: 'read_only', ttlSeconds: 60, sampled: true });
    await h.nextEvent((e) => e.keyHashes.includes(sha256(key.key)));
    expect((await resolve(key))?.cache).toEqual({ mode: 'read_only', ttlSeconds: 60, sampled: true });

    const widened = await h.bus.request(S.cache.set, { tenant: 'narrowed', key: key.id, mode: 'read_write', ttlSeconds: 6000 }, CacheSetReply);
    expect(widened.effective).toEqual({ mode: 'read_write', ttlSeconds: 600, sampled: true });
    await h.bus.request(S.cache.set, { tenant: 'narrowed', mode: 'off' }, CacheSetReply);
    expect((await resolve(key))?.cache).toBeUndefined();
    await h.bus.request(S.cache.set, { tenant: 'narrowed', mode: 'read_write' }, CacheSetReply);
    await h.bus.request(S.cache.set, { tenant: 'narrowed', key: key.id, mode: null }, CacheSetReply);
    expect((await resolve(key))?.cache).toEqual({ mode: 'read_write', ttlSeconds: 600, sampled: true });
  });

  it("refuses another tenant's key and an unknown tenant, naming the field", async () => {
    await h.bus.request(S.config.apply, { tenants: [{ slug: 'owner' }, { slug: 'stranger' }] }, ApplyResult);
    const key = await h.bus.request(S.keys.create, { tenant: 'owner' }, KeyCreated);
    await expect(h.bus.request(S.cache.set, { tenant: 'stranger', key: key.id, mode: 'off' }, CacheSetReply)).rejects.toMatchObject({
      code: 'not_found',
      param: 'key',
    });
    await expect(h.bus.request(S.cache.set, { tenant: 'nobody', mode: 'off' }, CacheSetReply)).rejects.toMatchObject({ code: 'not_found', param: 'tenant' });
  });
});
