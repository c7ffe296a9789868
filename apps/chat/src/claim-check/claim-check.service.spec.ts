import { claimCheckKey, GatewayError, type OaicCallPayload } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type Redis from 'ioredis';
import { ClaimCheckService } from './claim-check.service';

describe('ClaimCheckService', () => {
  const parked = new Map<string, string>();
  const redis = {
    getdel: async (key: string) => {
      const value = parked.get(key) ?? null;
      parked.delete(key);
      return value;
    },
  } as unknown as Redis;
  const service = new ClaimCheckService(redis, { prefix: 'run1.' } as NatsBus);
  const caller = { requestId: 'r-1', tenantId: 't-1', keyId: 'k-1', keyKind: 'payg', route: 'oaic.chat' } as const;
  const refTo = (key: string): OaicCallPayload => ({ ...caller, bodyRef: { store: 'redis', key, bytes: 2 } });

  beforeEach(() => parked.clear());

  it('redeems the body parked for this tenant and request', async () => {
    const key = claimCheckKey('run1.', 't-1', 'r-1');
    parked.set(key, '{"a":1}');
    await expect(service.body(refTo(key))).resolves.toEqual({ a: 1 });
    expect(parked.has(key)).toBe(false);
  });

  it('never redeems a key parked for another tenant or request', async () => {
    for (const key of [claimCheckKey('run1.', 't-2', 'r-1'), claimCheckKey('run1.', 't-1', 'r-2'), 'run1.claim:r-1', claimCheckKey('run2.', 't-1', 'r-1')]) {
      parked.set(key, '{"stolen":true}');
      const error = await service.body(refTo(key)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayError);
      expect(parked.has(key)).toBe(true);
    }
  });

  it('passes an inline body through', async () => {
    await expect(service.body({ ...caller, body: { inline: true } })).resolves.toEqual({ inline: true });
  });
});
