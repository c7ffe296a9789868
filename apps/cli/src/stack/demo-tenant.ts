/** The `demo` tenant `gatewayctl up` prints a key for: created once, its key regenerated on every start. */
import type { KeyCreated } from '@gateway/contracts';
import type { AdminClient } from '../admin/admin-client';
import { AdminApiError } from '../admin/admin-errors';

export const DEMO_TENANT = 'demo';
const DEMO_KEY_NAME = 'demo';
const MIN_BALANCE_MICROS = 5_000_000n;
const TOPUP = '10.00';

export async function ensureDemoTenant(admin: AdminClient): Promise<KeyCreated> {
  try {
    await admin.createTenant({ slug: DEMO_TENANT, name: 'Demo', billing: 'payg' });
  } catch (error) {
    // Already there from an earlier start: confirm it instead of failing.
    if (!(error instanceof AdminApiError) || error.status >= 500) throw error;
    await admin.getTenant(DEMO_TENANT);
  }
  const existing = (await admin.listKeys(DEMO_TENANT)).find((key) => key.name === DEMO_KEY_NAME && key.status === 'active');
  // Only a hash is stored, so a plain key to print means a fresh secret.
  const key = existing ? await admin.regenerateKey(existing.id) : await admin.createKey({ tenant: DEMO_TENANT, name: DEMO_KEY_NAME });
  const balance = await admin.balance(DEMO_TENANT);
  if (BigInt(balance.balanceMicros) < MIN_BALANCE_MICROS) await admin.topup({ tenant: DEMO_TENANT, amount: TOPUP });
  return key;
}
