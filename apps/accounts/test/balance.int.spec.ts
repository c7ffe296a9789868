import { WalletKeys, WalletStore } from '@gateway/billing';
import { BalanceView, GatewayError, SUBJECTS, TenantView } from '@gateway/contracts';
import Redis from 'ioredis';
import { MAX_BALANCE_MICROS } from '../src/balance/balance.service';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;

describe('balance top-ups stay inside an int64 of micro-units', () => {
  let h: AccountsHarness;
  let redis: Redis;
  let wallet: WalletStore;

  beforeAll(async () => {
    h = await startAccountsHarness('accounts_balance');
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    wallet = new WalletStore(redis, WalletKeys.fromPrefix(h.bus.prefix));
  }, 60_000);

  afterAll(async () => {
    const keys = await redis.keys(`${wallet.keys.tag}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await h?.stop();
  });

  const topup = (tenant: string, amountMicros: string) =>
    h.bus.request(S.balance.topup, { tenant, amountMicros }, BalanceView).catch((error: unknown) => error);

  it('refuses a top-up above the maximum over NATS with 400 naming amount, the balance untouched', async () => {
    const tenant = await h.bus.request(S.tenants.create, { slug: 'huge' }, TenantView);
    for (const amount of ['99999999999999999999999', '1000000000000001']) {
      const error = await topup('huge', amount);
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ code: 'invalid_request', param: 'amount' });
    }
    expect(await wallet.balance(tenant.id)).toBeNull();
  });

  it('refuses a top-up that would take the balance past its maximum', async () => {
    const tenant = await h.bus.request(S.tenants.create, { slug: 'nearly-full' }, TenantView);
    await wallet.credit(tenant.id, 0n, MAX_BALANCE_MICROS - 1n);
    const error = await topup('nearly-full', '2');
    expect(error).toMatchObject({ code: 'invalid_request', param: 'amount', message: expect.stringContaining('above the maximum') });
    expect(await wallet.balance(tenant.id)).toBe(MAX_BALANCE_MICROS - 1n);
    await expect(h.bus.request(S.balance.topup, { tenant: 'nearly-full', amountMicros: '1' }, BalanceView)).resolves.toMatchObject({
      balanceMicros: String(MAX_BALANCE_MICROS),
    });
  });
});
