import type { KeyContext } from '@gateway/contracts';
import Redis from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
import { toDialectError } from '../errors/error-dialect';
import { inDialect } from './limits.hook';
import { RateLimitedError, RateLimiter } from './rate-limiter.service';

function keyContext(limits: KeyContext['limits'], tenantId = randomUUID()): KeyContext {
  return {
    keyId: randomUUID(),
    keyName: 'k',
    kind: 'payg',
    tenantId,
    tenantSlug: 't',
    billing: 'payg',
    expiresAt: null,
    expiredBy: null,
    models: [],
    budgets: [],
    featureControls: {},
    limits,
  };
}

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof RateLimitedError ? error.kind : String(error);
  }
}

describe('rate limiter on a real Redis, as two edge replicas', () => {
  const namespace = `t${Date.now()}${randomBytes(3).toString('hex')}`;
  let a: RateLimiter;
  let b: RateLimiter;

  beforeAll(() => {
    a = new RateLimiter(new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'), namespace);
    b = new RateLimiter(new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'), namespace);
  });

  afterAll(() => {
    a.onApplicationShutdown();
    b.onApplicationShutdown();
  });

  it('shares requests per minute between replicas and tells when to retry', async () => {
    const context = keyContext({ key: { rpm: 4 }, tenant: null });
    const now = Date.UTC(2030, 0, 1, 0, 0, 15);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => outcome((i % 2 ? a : b).admit(context, 0, now))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(4);
    expect(results.filter((r) => r === 'rpm')).toHaveLength(6);
    const refused = await (a.admit(context, 0, now).catch((error: RateLimitedError) => error) as Promise<RateLimitedError>);
    expect(refused).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 45, scope: 'key' });
  });

  it('limits a tenant across its keys and frees concurrency slots when replies end', async () => {
    const tenantId = randomUUID();
    const first = keyContext({ key: null, tenant: { concurrency: 2 } }, tenantId);
    const second = keyContext({ key: null, tenant: { concurrency: 2 } }, tenantId);
    const held = [await a.admit(first, 0), await b.admit(second, 0)];
    expect(await outcome(a.admit(second, 0))).toBe('concurrency');
    held[0]!.leave();
    held[0]!.leave();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const third = await b.admit(first, 0);
    expect(await outcome(a.admit(first, 0))).toBe('concurrency');
    held[1]!.leave();
    third.leave();
  });

  it('counts estimated tokens per minute', async () => {
    const context = keyContext({ key: { tpm: 100 }, tenant: null });
    expect(await outcome(a.admit(context, 60))).toBe('ok');
    expect(await outcome(b.admit(context, 30))).toBe('ok');
    expect(await outcome(a.admit(context, 30))).toBe('tpm');
  });

  it('answers music concurrency refusals with 405 and request-rate ones with 430', () => {
    const rate = inDialect(new RateLimitedError('rpm', 'key', 3), 'music');
    const busy = inDialect(new RateLimitedError('concurrency', 'key', 1), 'music');
    expect(toDialectError('music', rate, 'r').status).toBe(430);
    expect(toDialectError('music', busy, 'r').status).toBe(405);
    expect(toDialectError('oaic', inDialect(new RateLimitedError('concurrency', 'key', 1), 'oaic'), 'r').status).toBe(429);
  });
});
