import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { SignInAttempts, type SignInPolicy } from './sign-in-attempts';

const POLICY: SignInPolicy = { threshold: 5, baseSeconds: 1, maxSeconds: 3, perAddress: 1_000, addressWindowSeconds: 60 };

describe('SignInAttempts (Redis)', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 3 });
  const tag = `{spec-signin-${randomUUID()}}`;
  const attempts = (policy: Partial<SignInPolicy> = {}) => new SignInAttempts(redis, `${tag}:${randomUUID()}`, { ...POLICY, ...policy });

  afterAll(async () => {
    const keys = await redis.keys(`${tag}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('lets exactly the threshold of 50 concurrent guesses be checked, the last of them locking the email first', async () => {
    const store = attempts({ baseSeconds: 30, maxSeconds: 60 });
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => store.reserve('victim@example.com', `198.51.100.${i}`)));
    const checked = replies.filter((r) => r.kind === 'check');
    expect(checked).toHaveLength(5);
    expect(checked.map((r) => (r.kind === 'check' ? r.failures : 0)).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(checked.filter((r) => r.kind === 'check' && r.lockedUntil !== null)).toHaveLength(1);
    expect(replies.filter((r) => r.kind === 'locked')).toHaveLength(45);
    // The right password sent next is refused without being checked, from any address.
    const next = await store.reserve('victim@example.com', '203.0.113.9');
    expect(next).toEqual({ kind: 'locked', retryAfterSeconds: expect.any(Number) });
    expect(next.kind === 'locked' && next.retryAfterSeconds).toBeGreaterThan(20);
    // An email no account has locks the same way: nothing tells the two apart.
    const unknown = await Promise.all(Array.from({ length: 8 }, () => store.reserve('nobody@example.com', '198.51.100.1')));
    expect(unknown.map((r) => r.kind)).toEqual([...Array<string>(5).fill('check'), 'locked', 'locked', 'locked']);
  });

  it('doubles the lock with each attempt after it ends, up to the longest, and a success starts afresh', async () => {
    const store = attempts();
    const lockOf = async () => {
      const reply = await store.reserve('backoff@example.com', '198.51.100.7');
      if (reply.kind !== 'check' || reply.lockedUntil === null) throw new Error(`expected a locking check, got ${JSON.stringify(reply)}`);
      return reply.lockedUntil;
    };
    for (let i = 0; i < 4; i++) expect(await store.reserve('backoff@example.com', '198.51.100.7')).toMatchObject({ kind: 'check', lockedUntil: null });
    const lengths: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = Date.now();
      const until = await lockOf();
      lengths.push(Math.round((until.getTime() - before) / 1000));
      await sleep(until.getTime() - Date.now() + 20);
    }
    expect(lengths).toEqual([1, 2, 3, 3]);
    await store.succeed('backoff@example.com', '198.51.100.7');
    expect(await store.reserve('backoff@example.com', '198.51.100.7')).toMatchObject({ kind: 'check', failures: 1, lockedUntil: null });
  }, 30_000);

  it('refuses an address past its allowance over all emails, and a success returns its own attempt', async () => {
    const store = attempts({ perAddress: 4, addressWindowSeconds: 600 });
    for (let i = 0; i < 4; i++) expect(await store.reserve(`person${i}@example.com`, '2001:db8:7:7::1')).toMatchObject({ kind: 'check' });
    expect(await store.reserve('person9@example.com', '2001:db8:7:7::abcd')).toEqual({ kind: 'address', retryAfterSeconds: 600 });
    expect(await store.reserve('person9@example.com', '2001:db8:7:8::1')).toMatchObject({ kind: 'check' });
    await store.succeed('person0@example.com', '2001:db8:7:7::1');
    expect(await store.reserve('person0@example.com', '2001:db8:7:7::1')).toMatchObject({ kind: 'check' });
    expect(await store.reserve('person1@example.com', '2001:db8:7:7::1')).toMatchObject({ kind: 'address' });
  });

  it('forgets an email on a new password', async () => {
    const store = attempts({ threshold: 1 });
    expect(await store.reserve('reset@example.com', '198.51.100.8')).toMatchObject({ kind: 'check', lockedUntil: expect.any(Date) });
    expect(await store.reserve('reset@example.com', '198.51.100.8')).toMatchObject({ kind: 'locked' });
    await store.forgetEmail('reset@example.com');
    expect(await store.reserve('reset@example.com', '198.51.100.8')).toMatchObject({ kind: 'check', failures: 1 });
  });
});
