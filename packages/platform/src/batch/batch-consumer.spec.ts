import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { BatchConsumer, type BatchConsumerOptions, type BatchRefusal, type DeadLetterRecord } from './batch-consumer';
import type { BatchSource, SourceMessage } from './batch-source';

interface MemoryMessage extends SourceMessage {
  readonly id: number;
}

interface Stored {
  id: number;
  body: unknown;
  delivered: number;
  availableAt: number;
  taken: boolean;
}

/** A durable stream in memory: what is pulled stays taken until acknowledged, a retry comes back after its delay. */
class MemorySource implements BatchSource<MemoryMessage> {
  private readonly stored = new Map<number, Stored>();
  private nextId = 1;
  readonly acked: number[] = [];
  readonly discarded: number[] = [];
  readonly pulls: number[] = [];
  recovered = 0;
  stopped = false;
  /** Pulls still to fail, one each. */
  failPulls = 0;
  /** Deliveries to answer as unknown (another taker finished the message). */
  readonly foreign = new Set<number>();

  add(...bodies: unknown[]): number[] {
    return bodies.map((body) => {
      const id = this.nextId++;
      this.stored.set(id, { id, body, delivered: 0, availableAt: 0, taken: false });
      return id;
    });
  }

  get pending(): number {
    return this.stored.size;
  }

  async pull(max: number): Promise<MemoryMessage[]> {
    this.pulls.push(Date.now());
    if (this.failPulls > 0) {
      this.failPulls--;
      throw new Error('stream gone');
    }
    const now = Date.now();
    const ready = [...this.stored.values()].filter((s) => !s.taken && s.availableAt <= now).slice(0, max);
    return ready.map((s) => {
      s.taken = true;
      s.delivered++;
      return { id: s.id, body: s.body };
    });
  }

  async ack(messages: readonly MemoryMessage[]): Promise<void> {
    for (const { id } of messages) if (this.stored.delete(id)) this.acked.push(id);
  }

  async retry(messages: readonly MemoryMessage[], delayMs: number): Promise<void> {
    for (const { id } of messages) {
      const s = this.stored.get(id)!;
      s.taken = false;
      s.availableAt = Date.now() + delayMs;
    }
  }

  async discard(messages: readonly MemoryMessage[]): Promise<void> {
    for (const { id } of messages) if (this.stored.delete(id)) this.discarded.push(id);
  }

  async deliveries(messages: readonly MemoryMessage[]): Promise<Array<number | undefined>> {
    return messages.map(({ id }) => (this.foreign.has(id) ? undefined : this.stored.get(id)?.delivered));
  }

  async recover(): Promise<void> {
    this.recovered++;
  }

  stop(): void {
    this.stopped = true;
  }
}

const Item = z.object({ n: z.number().int() });
type Item = z.infer<typeof Item>;

const quiet = { error: () => undefined, debug: () => undefined };

function consumer(source: MemorySource, overrides: Partial<BatchConsumerOptions<Item, MemoryMessage>> = {}) {
  const batches: Item[][] = [];
  const letters: DeadLetterRecord[] = [];
  const instance = new BatchConsumer<Item, MemoryMessage>({
    name: 'spec',
    source,
    schema: Item,
    handle: async (batch) => {
      batches.push(batch);
      return [];
    },
    deadLetter: async (record) => {
      letters.push(record);
    },
    batch: 10,
    lingerMs: 5,
    idleWaitMs: 20,
    retryDelayMs: 30,
    maxDeliveries: 3,
    logger: quiet,
    ...overrides,
  });
  return { instance, batches, letters };
}

async function until(what: string, done: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const items = (count: number) => Array.from({ length: count }, (_, n) => ({ n }));

describe('BatchConsumer', () => {
  it('hands the source over in batches of at most `batch`, parsed, in order', async () => {
    const source = new MemorySource();
    source.add(...items(25));
    const { instance, batches } = consumer(source);
    expect(await instance.drain()).toBe(25);
    expect(batches.map((b) => b.length)).toEqual([10, 10, 5]);
    expect(batches.flat()).toEqual(items(25));
    expect(source.pending).toBe(0);
  });

  it('acknowledges a batch only once its write has resolved', async () => {
    const source = new MemorySource();
    const ids = source.add(...items(3));
    let ackedDuringWrite: number[] | undefined;
    const { instance } = consumer(source, {
      handle: async () => {
        await sleep(20);
        ackedDuringWrite = [...source.acked];
        return [];
      },
    });
    await instance.drain();
    expect(ackedDuringWrite).toEqual([]);
    expect(source.acked).toEqual(ids);
  });

  it('discards a message its schema refuses and hands over the rest', async () => {
    const source = new MemorySource();
    const [good, bad, alsoBad, last] = source.add({ n: 1 }, { n: 'one' }, undefined, { n: 2 });
    const { instance, batches } = consumer(source);
    await instance.drain();
    expect(batches).toEqual([[{ n: 1 }, { n: 2 }]]);
    expect(source.discarded).toEqual([bad, alsoBad]);
    expect(source.acked).toEqual([good, last]);
  });

  it('retries a batch whose write failed as a whole after the retry delay, and acknowledges it once written', async () => {
    const source = new MemorySource();
    const ids = source.add(...items(4));
    const calls: number[] = [];
    const { instance } = consumer(source, {
      handle: async () => {
        calls.push(Date.now());
        if (calls.length === 1) throw new Error('database unreachable');
        return [];
      },
    });
    instance.start();
    await until('the second write', () => source.acked.length === 4);
    await instance.stop();
    expect(calls).toHaveLength(2);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(25);
    expect(source.acked).toEqual(ids);
  });

  it('retries a refused message alone, acknowledging the rest, and dead-letters it on its last delivery', async () => {
    const source = new MemorySource();
    const [first, poisoned, third] = source.add({ n: 1 }, { n: 666 }, { n: 3 });
    const handed: Item[][] = [];
    const { instance, letters } = consumer(source, {
      handle: async (batch) => {
        handed.push(batch);
        return batch.flatMap((item, index): BatchRefusal[] => (item.n === 666 ? [{ index, error: 'refused 666', payload: JSON.stringify(item) }] : []));
      },
    });
    instance.start();
    await until('the dead letter', () => letters.length > 0);
    await until('nothing pending', () => source.pending === 0);
    await instance.stop();
    // The good ones were acknowledged with the first write; only the refused one came back, until its third delivery.
    expect(source.acked).toEqual([first, third, poisoned]);
    expect(handed).toEqual([[{ n: 1 }, { n: 666 }, { n: 3 }], [{ n: 666 }], [{ n: 666 }]]);
    expect(letters).toEqual([{ error: 'refused 666', deliveries: 3, payload: '{"n":666}' }]);
  });

  it('acknowledges without dead-lettering a refused message that another taker has finished meanwhile', async () => {
    const source = new MemorySource();
    const [id] = source.add({ n: 1 });
    source.foreign.add(id!);
    const { instance, letters } = consumer(source, { handle: async () => [{ index: 0, error: 'refused', payload: '{}' }] });
    await instance.drain();
    expect(letters).toEqual([]);
    expect(source.acked).toEqual([id]);
  });

  it('retries the batch when dead-lettering fails, rather than losing the record', async () => {
    const source = new MemorySource();
    source.add({ n: 1 });
    let attempts = 0;
    const { instance } = consumer(source, {
      maxDeliveries: 1,
      handle: async () => [{ index: 0, error: 'refused', payload: '{}' }],
      deadLetter: async () => {
        attempts++;
        if (attempts === 1) throw new Error('dead-letter stream unreachable');
      },
    });
    instance.start();
    await until('the second dead-lettering', () => attempts === 2 && source.pending === 0);
    await instance.stop();
    expect(source.acked).toHaveLength(1);
  });

  it('backs off on an empty stream, doubling its wait from the linger up to the idle wait', async () => {
    const source = new MemorySource();
    const { instance } = consumer(source, { lingerMs: 10, idleWaitMs: 80 });
    instance.start();
    await sleep(500);
    await instance.stop();
    const gaps = source.pulls.slice(1).map((at, i) => at - source.pulls[i]!);
    // 20, 40, 80, 80, …: a handful of pulls, not one every linger.
    expect(gaps[0]).toBeGreaterThanOrEqual(15);
    expect(gaps[1]).toBeGreaterThanOrEqual(35);
    for (const gap of gaps.slice(2)) expect(gap).toBeGreaterThanOrEqual(75);
    expect(source.pulls.length).toBeLessThanOrEqual(9);
  });

  it('lingers after a short pull and pulls again at once after a full one', async () => {
    const source = new MemorySource();
    source.add(...items(25));
    const { instance, batches } = consumer(source, { lingerMs: 60, idleWaitMs: 60 });
    instance.start();
    await until('a pull after the short one', () => source.pulls.length === 4);
    await instance.stop();
    const [a, b, c, d] = source.pulls;
    expect(b! - a!).toBeLessThan(30);
    expect(c! - b!).toBeLessThan(30);
    expect(d! - c!).toBeGreaterThanOrEqual(55);
    expect(batches.map((x) => x.length)).toEqual([10, 10, 5]);
  });

  it('after a failed pull recovers the source and pulls again after the retry delay', async () => {
    const source = new MemorySource();
    source.failPulls = 1;
    source.add({ n: 1 });
    const { instance, batches } = consumer(source);
    instance.start();
    await until('the write', () => batches.length === 1);
    await instance.stop();
    expect(source.recovered).toBe(1);
    expect(source.pulls[1]! - source.pulls[0]!).toBeGreaterThanOrEqual(25);
    expect(source.pending).toBe(0);
  });

  it('stops after the batch in hand is written and acknowledged, and pulls no more', async () => {
    const source = new MemorySource();
    source.add(...items(3));
    let release!: () => void;
    const writing = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const { instance } = consumer(source, {
      handle: async () => {
        started = true;
        await writing;
        return [];
      },
    });
    instance.start();
    await until('the write to start', () => started);
    let stopped = false;
    const stopping = instance.stop().then(() => (stopped = true));
    await sleep(20);
    expect(stopped).toBe(false);
    expect(source.stopped).toBe(true);
    release();
    await stopping;
    expect(source.acked).toHaveLength(3);
    const pulls = source.pulls.length;
    source.add({ n: 4 });
    await sleep(50);
    expect(source.pulls).toHaveLength(pulls);
  });

  it('drains alongside a running loop without two pulls at once', async () => {
    const source = new MemorySource();
    let inPull = 0;
    let overlapped = false;
    const pull = source.pull.bind(source);
    source.pull = async (max) => {
      if (++inPull > 1) overlapped = true;
      await sleep(2);
      try {
        return await pull(max);
      } finally {
        inPull--;
      }
    };
    const { instance, batches } = consumer(source, { lingerMs: 1, idleWaitMs: 1 });
    instance.start();
    source.add(...items(40));
    await instance.drain();
    await until('everything written', () => source.pending === 0);
    await instance.stop();
    expect(overlapped).toBe(false);
    expect(batches.flat()).toHaveLength(40);
  });
});
