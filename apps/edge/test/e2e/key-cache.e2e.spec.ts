/** The hot path never asks accounts twice for a valid key: count resolve requests on NATS while 200 requests run. */
import { createHash } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { bearer, createTenantWithKey, e2eEnv, http } from './support/gateway';

describe('key resolution cache', () => {
  let nats: NatsConnection;

  beforeAll(async () => {
    nats = await connect({ servers: e2eEnv().GW_E2E_NATS_URL, name: 'e2e-resolve-counter' });
  });

  afterAll(async () => {
    await nats.close();
  });

  it('resolves a valid key exactly once for 200 requests', async () => {
    const tenant = await createTenantWithKey({ label: 'cache' });
    const hash = createHash('sha256').update(tenant.key).digest('hex');
    let resolves = 0;
    // A plain subscriber (no queue group) sees a copy of every request the edge sends.
    const sub = nats.subscribe(`${e2eEnv().GW_E2E_NATS_PREFIX}accounts.keys.resolve`, {
      callback: (_error, msg) => {
        // Other spec files run in parallel; only this key's lookups count.
        if (msg.string().includes(hash)) resolves += 1;
      },
    });
    await nats.flush();

    const base = e2eEnv().GW_E2E_BASE_URL;
    for (let batch = 0; batch < 10; batch += 1) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () => http('GET', `${base}/oaic/v1/models`, { headers: bearer(tenant.key) }).then((r) => r.status)),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    await nats.flush();
    sub.unsubscribe();

    // The edge cannot know a brand-new key without asking once (which also proves the counter sees lookups).
    expect(resolves).toBe(1);
  });
});
