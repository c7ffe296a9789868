import Redis from 'ioredis';
import { until } from '../testing/wait';
import { REVIVE_DELAY_MS, RevivingRedis } from './reviving-redis';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** What a failover message does to a reconnecting client: its connector is told to disconnect while it connects. */
function disconnectConnectorWhileReconnecting(client: Redis): void {
  const connector = (client as unknown as { connector: { disconnect(): void } }).connector;
  client.once('connecting', () => connector.disconnect());
  client.disconnect(true);
}

async function ready(client: Redis): Promise<void> {
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
}

describe('RevivingRedis on the real Redis', () => {
  const clients: Redis[] = [];
  const client = <T extends Redis>(made: T): T => {
    made.on('error', () => undefined);
    clients.push(made);
    return made;
  };

  afterAll(() => {
    for (const made of clients) made.disconnect();
  });

  it('leaves a plain ioredis client ended for good when its connector is closed mid-reconnect (the defect)', async () => {
    const plain = client(new Redis(REDIS_URL, { retryStrategy: () => 50 }));
    await ready(plain);
    disconnectConnectorWhileReconnecting(plain);
    await until('the plain client ends', () => plain.status === 'end', 5_000);
    await new Promise((resolve) => setTimeout(resolve, REVIVE_DELAY_MS * 3));
    expect(plain.status).toBe('end');
    await expect(plain.ping()).rejects.toThrow('Connection is closed.');
  });

  it('connects again by itself after the same, and serves commands', async () => {
    const reviving = client(new RevivingRedis({ ...parse(REDIS_URL), retryStrategy: () => 50 }));
    await ready(reviving);
    disconnectConnectorWhileReconnecting(reviving);
    await until('the client ends', () => reviving.status === 'end', 5_000);
    await until('the client is ready again', () => reviving.status === 'ready', 10_000);
    await expect(reviving.ping()).resolves.toBe('PONG');
  });

  it('stays closed when the gateway closes it, by disconnect or by quit', async () => {
    const disconnected = client(new RevivingRedis(parse(REDIS_URL)));
    const quitted = client(new RevivingRedis(parse(REDIS_URL)));
    await Promise.all([ready(disconnected), ready(quitted)]);
    disconnected.disconnect();
    await quitted.quit();
    await new Promise((resolve) => setTimeout(resolve, REVIVE_DELAY_MS * 3));
    expect([disconnected.status, quitted.status]).toEqual(['end', 'end']);
  });

  it('makes its duplicates the same way', () => {
    const original = client(new RevivingRedis({ ...parse(REDIS_URL), lazyConnect: true }));
    const copy = client(original.duplicate({ lazyConnect: true }));
    expect(copy).toBeInstanceOf(RevivingRedis);
  });
});

function parse(url: string): { host: string; port: number } {
  const { hostname, port } = new URL(url);
  return { host: hostname, port: Number(port || 6379) };
}
