/**
 * Regenerate, revoke and subscription expiry through gatewayctl, observed on the SECOND edge replica: its
 * cached key must stop working at once (invalidation broadcast), not when a cache entry ages out.
 */
import { KeyCreated, KeyView } from '@gateway/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from './support/cli-runner';
import { bearer, createTenantWithKey, e2eEnv, http } from './support/gateway';

const status = async (key: string, replica: 1 | 2) => {
  const base = replica === 1 ? e2eEnv().GW_E2E_BASE_URL : e2eEnv().GW_E2E_BASE_URL_2;
  return (await http('GET', `${base}/oaic/v1/models`, { headers: bearer(key) })).status;
};

/** Polls until `key` gets `expected` on `replica`; returns how long it took, or fails after `withinMs`. */
async function statusWithin(key: string, replica: 1 | 2, expected: number, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const got = await status(key, replica);
    const elapsed = Date.now() - started;
    if (got === expected) return elapsed;
    if (elapsed > withinMs) throw new Error(`replica ${replica} still answered ${got} after ${elapsed} ms (expected ${expected})`);
    await sleep(25);
  }
}

describe('key lifecycle across edge replicas', () => {
  it('after `gatewayctl keys regenerate`, replica 2 refuses the old key within 1 s and accepts the new one', async () => {
    const tenant = await createTenantWithKey({ label: 'regen' });
    // Both replicas cache the old key first, so only the broadcast can make them forget it.
    expect(await status(tenant.key, 1)).toBe(200);
    expect(await status(tenant.key, 2)).toBe(200);

    const result = await runCli(['keys', 'regenerate', tenant.id, '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const fresh = KeyCreated.parse(JSON.parse(result.stdout));
    expect(fresh.id).toBe(tenant.id);
    expect(fresh.key).not.toBe(tenant.key);
    expect(fresh.key.startsWith('sk-')).toBe(true);

    expect(await statusWithin(tenant.key, 2, 401, 1000)).toBeLessThanOrEqual(1000);
    expect(await status(tenant.key, 1)).toBe(401);
    expect(await status(fresh.key, 2)).toBe(200);
    expect(await status(fresh.key, 1)).toBe(200);
  });

  it('after `gatewayctl keys revoke`, both replicas refuse the key and the list shows it revoked, masked', async () => {
    const tenant = await createTenantWithKey({ label: 'revoke' });
    expect(await status(tenant.key, 2)).toBe(200);

    const revoked = await runCli(['keys', 'revoke', tenant.id, '--json']);
    expect(revoked.code).toBe(0);
    expect(KeyView.parse(JSON.parse(revoked.stdout))).toMatchObject({ id: tenant.id, status: 'revoked', masked: tenant.masked });

    await statusWithin(tenant.key, 2, 401, 1000);
    expect(await status(tenant.key, 1)).toBe(401);

    const list = await runCli(['keys', 'list', '--tenant', tenant.slug]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(tenant.masked);
    expect(list.stdout).toContain('revoked');
    expect(list.stdout).not.toContain(tenant.key);
  });

  it('an expired subscription stops its keys on every replica (`gatewayctl subscriptions set` in the past)', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const tenant = await createTenantWithKey({ label: 'expire', billing: 'custom', expires: future });
    expect(tenant.key.startsWith('sk-custom-')).toBe(true);
    expect(await status(tenant.key, 1)).toBe(200);
    expect(await status(tenant.key, 2)).toBe(200);

    const past = new Date(Date.now() - 60_000).toISOString();
    const result = await runCli(['subscriptions', 'set', '--tenant', tenant.slug, '--expires', past]);
    expect(result).toMatchObject({ code: 0, stderr: '' });

    await statusWithin(tenant.key, 2, 401, 1000);
    expect(await status(tenant.key, 1)).toBe(401);
  });

  it('a subscription that runs out while its key is cached stops working when it expires', async () => {
    const expires = new Date(Date.now() + 3000);
    const tenant = await createTenantWithKey({ label: 'lapse', billing: 'custom', expires: expires.toISOString() });
    expect(await status(tenant.key, 2)).toBe(200);
    await sleep(Math.max(0, expires.getTime() - Date.now()) + 100);
    expect(await status(tenant.key, 2)).toBe(401);
    expect(await status(tenant.key, 1)).toBe(401);
  });
});
