import { randomBytes } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { connectNats } from './connect';
import { DeadLetterStream } from './dead-letter-stream';
import { removeNamespace } from './namespace-cleanup';

describe('DeadLetterStream on a real JetStream', () => {
  const prefix = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;
  let connection: NatsConnection;
  let letters: DeadLetterStream;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'dead-letter-spec');
    letters = new DeadLetterStream(connection, prefix);
    await letters.ensure();
    await letters.ensure();
  });

  afterAll(async () => {
    await connection.drain();
    await removeNamespace({ natsUrl: 'nats://127.0.0.1:4222', redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix });
  });

  const letter = (consumer: 'usage' | 'ledger', payload: string) => ({
    consumer,
    source: 'SRC',
    error: 'refused',
    deliveries: 5,
    at: new Date().toISOString(),
    payload,
  });

  it('stores, lists per consumer, counts, gets and removes dead letters', async () => {
    expect(letters.names.stream).toMatch(/^DEAD_LETTERS_t/);
    const a = await letters.add(letter('usage', '{"a":1}'));
    const b = await letters.add(letter('ledger', '{"b":2}'));
    const c = await letters.add(letter('usage', '{"c":3}'));
    expect((await letters.list(10)).map((s) => s.id)).toEqual([a, b, c]);
    expect((await letters.list(10, 'usage')).map((s) => s.letter.payload)).toEqual(['{"a":1}', '{"c":3}']);
    expect((await letters.list(1, 'usage')).map((s) => s.id)).toEqual([a]);
    expect(await letters.counts()).toEqual({ usage: 2, ledger: 1 });

    await letters.remove(a);
    expect(await letters.get(a)).toBeNull();
    expect((await letters.get(c))?.letter.payload).toBe('{"c":3}');
    expect((await letters.list(10, 'usage')).map((s) => s.id)).toEqual([c]);
    expect(await letters.counts()).toEqual({ usage: 1, ledger: 1 });
  });
});
