import { ApplyResult, KeyCreated, KeyResolveReply, SUBJECTS } from '@gateway/contracts';
import { createHash } from 'node:crypto';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('rate limits from config apply to the key context', () => {
  let h: AccountsHarness;

  beforeAll(async () => {
    h = await startAccountsHarness('accounts_limits');
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  });

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
