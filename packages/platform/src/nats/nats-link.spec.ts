import { Logger } from '@nestjs/common';
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
    send: async (type: string, data = '') => {
      events.push({ type, data } as Status);
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

  it('logs one line when the link is lost and one when it is back, naming the server, not one per attempt', async () => {
    const lines: string[] = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void lines.push(String(message)));
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void lines.push(String(message)));
    try {
      const fake = fakeConnection();
      new NatsLink(fake.source);
      await fake.send('disconnect', '127.0.0.1:4222');
      for (let attempt = 0; attempt < 5; attempt++) await fake.send('reconnecting');
      await fake.send('disconnect', '127.0.0.1:4222');
      await fake.send('reconnect', '127.0.0.1:4223');
      expect(lines).toEqual(['nats lost: 127.0.0.1:4222', 'nats back: 127.0.0.1:4223']);
    } finally {
      warn.mockRestore();
      log.mockRestore();
    }
  });
});
