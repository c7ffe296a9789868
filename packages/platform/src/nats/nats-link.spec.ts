import type { Status } from 'nats';
import { MessageQueue } from './message-queue';
import { NatsLink } from './nats-link';

/** A connection whose status events and close the spec sends by hand. */
function fakeConnection() {
  const events = new MessageQueue<Status>();
  let close: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (close = resolve));
  const source = {
    status: () => events.iterate(() => undefined) as ReturnType<import('nats').NatsConnection['status']>,
    closed: () => closed.then(() => undefined),
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    source,
    send: async (type: string) => {
      events.push({ type, data: '' } as Status);
      await settle();
    },
    close: async () => {
      close();
      await settle();
    },
  };
}

describe('NatsLink', () => {
  it('is down from a disconnect to the next reconnect, counting drops', async () => {
    const fake = fakeConnection();
    const link = new NatsLink(fake.source);
    const drops: number[] = [];
    link.onDrop(() => drops.push(link.epoch));
    expect(link.isUp).toBe(true);
    await fake.send('disconnect');
    expect(link.isUp).toBe(false);
    await fake.send('reconnecting');
    expect(link.isUp).toBe(false);
    await fake.send('reconnect');
    expect(link.isUp).toBe(true);
    await fake.send('disconnect');
    expect(drops).toEqual([1, 2]);
  });

  it('resolves whenUp at the reconnect, or false at its deadline or the close', async () => {
    const fake = fakeConnection();
    const link = new NatsLink(fake.source);
    await expect(link.whenUp(10)).resolves.toBe(true);
    await fake.send('disconnect');
    const back = link.whenUp(60_000);
    await expect(link.whenUp(1)).resolves.toBe(false);
    await fake.send('reconnect');
    await expect(back).resolves.toBe(true);
    await fake.send('disconnect');
    const never = link.whenUp(60_000);
    await fake.close();
    await expect(never).resolves.toBe(false);
    await expect(link.whenUp(60_000)).resolves.toBe(false);
  });
});
