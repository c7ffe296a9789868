import { MessageQueue } from './message-queue';

async function readAll<T>(queue: MessageQueue<T>, onDone = () => undefined): Promise<T[]> {
  const read: T[] = [];
  for await (const item of queue.iterate(onDone)) read.push(item);
  return read;
}

describe('MessageQueue', () => {
  it('yields what was pushed before and while reading, in order', async () => {
    const queue = new MessageQueue<number>();
    queue.push(1);
    queue.push(2);
    const read: number[] = [];
    const reading = (async () => {
      for await (const item of queue.iterate(() => undefined)) {
        read.push(item);
        if (item === 4) queue.end();
      }
    })();
    await Promise.resolve();
    queue.push(3);
    setTimeout(() => queue.push(4), 5);
    await reading;
    expect(read).toEqual([1, 2, 3, 4]);
  });

  it('throws a failure after the items pushed before it, and ignores pushes after it', async () => {
    const queue = new MessageQueue<string>();
    const read: string[] = [];
    queue.push('a');
    queue.fail(new Error('timeout'));
    queue.push('b');
    const reading = (async () => {
      for await (const item of queue.iterate(() => undefined)) read.push(item);
    })();
    await expect(reading).rejects.toThrow('timeout');
    expect(read).toEqual(['a']);
  });

  it('drops what was not read when ended', async () => {
    const queue = new MessageQueue<number>();
    queue.push(1);
    queue.push(2);
    queue.end();
    queue.push(3);
    await expect(readAll(queue)).resolves.toEqual([]);
  });

  it('runs onDone however the reader stops, including leaving early', async () => {
    const queue = new MessageQueue<number>();
    let done = 0;
    for (let i = 0; i < 5; i++) queue.push(i);
    for await (const item of queue.iterate(() => done++)) if (item === 1) break;
    expect(done).toBe(1);
    const failing = new MessageQueue<number>();
    failing.fail(new Error('closed'));
    await expect(readAll(failing, () => void done++)).rejects.toThrow('closed');
    expect(done).toBe(2);
  });
});
