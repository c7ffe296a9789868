import type { StreamEntry, WalletEventReader } from '@gateway/billing';
import { WalletEventSource } from './wallet-events.source';

const entry = (id: string): StreamEntry => ({ id, event: { rid: `r-${id}`, tenant: 't', kind: 'settle', pool: 'balance', amount: '-1' } });

/** The reader's calls, recorded; each answers from the lists the test sets. */
function fakeReader() {
  const calls: string[] = [];
  const answers = { stale: [] as StreamEntry[][], read: [] as StreamEntry[][] };
  const reader = {
    ensureGroup: async () => void calls.push('ensureGroup'),
    claimStale: async (_idle: number, count: number) => (calls.push(`claimStale ${count}`), answers.stale.shift() ?? []),
    read: async (count: number) => (calls.push(`read ${count}`), answers.read.shift() ?? []),
    reclaim: async (ids: string[]) => (calls.push(`reclaim ${ids.join(',')}`), ids.map(entry)),
    ack: async (ids: string[]) => void calls.push(`ack ${ids.join(',')}`),
    deliveries: async (ids: string[]) => new Map(ids.filter((id) => id !== 'gone').map((id) => [id, 2])),
  };
  return { reader: reader as unknown as WalletEventReader, calls, answers };
}

describe('WalletEventSource', () => {
  it('claims what a dead member left before reading new entries, until a claim comes back short', async () => {
    const { reader, calls, answers } = fakeReader();
    answers.stale.push([entry('1'), entry('2')], [entry('3')]);
    const source = new WalletEventSource(reader, { blockMs: 500, claimIdleMs: 30_000 });
    expect((await source.pull(2)).map((m) => m.id)).toEqual(['1', '2']);
    expect((await source.pull(2)).map((m) => m.id)).toEqual(['3']);
    await source.pull(2);
    expect(calls).toEqual(['claimStale 2', 'claimStale 2', 'read 2']);
  });

  it('looks again, every half claimIdleMs, for what a member that died since left pending', async () => {
    const { reader, calls, answers } = fakeReader();
    answers.stale.push([], [entry('9')]);
    const source = new WalletEventSource(reader, { blockMs: 500, claimIdleMs: 60 });
    await source.pull(5);
    await source.pull(5);
    expect(calls).toEqual(['claimStale 5', 'read 5']);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect((await source.pull(5)).map((m) => m.id)).toEqual(['9']);
    await source.pull(5);
    expect(calls).toEqual(['claimStale 5', 'read 5', 'claimStale 5', 'read 5']);
  });

  it('takes retried entries back once their delay is over, and not before', async () => {
    const { reader, calls, answers } = fakeReader();
    answers.stale.push([]);
    const source = new WalletEventSource(reader, { blockMs: 500, claimIdleMs: 30_000 });
    await source.pull(10);
    await source.retry(
      [
        { id: 'a', body: null },
        { id: 'b', body: null },
      ],
      40,
    );
    await source.pull(10);
    expect(calls.at(-1)).toBe('read 10');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const retried = await source.pull(10);
    expect(calls.at(-1)).toBe('reclaim a,b');
    expect(retried.map((m) => m.id)).toEqual(['a', 'b']);
    expect(retried[0]!.body).toEqual(entry('a').event);
    await source.pull(10);
    expect(calls.at(-1)).toBe('read 10');
  });

  it('acknowledges a discarded entry, answers no delivery count for one no longer pending, and claims again after recovering', async () => {
    const { reader, calls, answers } = fakeReader();
    answers.stale.push([]);
    const source = new WalletEventSource(reader, { blockMs: 500, claimIdleMs: 30_000 });
    await source.pull(5);
    await source.discard([{ id: 'x', body: null }]);
    expect(calls.at(-1)).toBe('ack x');
    expect(
      await source.deliveries([
        { id: 'y', body: null },
        { id: 'gone', body: null },
      ]),
    ).toEqual([2, undefined]);
    await source.recover();
    await source.pull(5);
    expect(calls.slice(-2)).toEqual(['ensureGroup', 'claimStale 5']);
  });
});
