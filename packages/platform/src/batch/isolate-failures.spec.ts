import { writeIsolatingFailures } from './isolate-failures';

class RecordError extends Error {}

/** A writer that refuses any call holding a poisoned record, like one INSERT over many rows. */
function writer(poisoned: Set<number>) {
  const written = new Set<number>();
  const calls: number[][] = [];
  const write = async (items: readonly number[]) => {
    calls.push([...items]);
    const bad = items.find((item) => poisoned.has(item));
    if (bad !== undefined) throw new RecordError(`record ${bad} refused`);
    items.forEach((item) => written.add(item));
  };
  return { write, written, calls };
}

const isRecord = (error: unknown) => error instanceof RecordError;

describe('writeIsolatingFailures', () => {
  it('writes a clean batch in one call', async () => {
    const w = writer(new Set());
    expect(await writeIsolatingFailures([1, 2, 3], w.write, isRecord)).toEqual([]);
    expect(w.calls).toEqual([[1, 2, 3]]);
  });

  it('writes every other record and returns each refused one with its own error', async () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const w = writer(new Set([7, 63]));
    const failed = await writeIsolatingFailures(items, w.write, isRecord);
    expect(failed.map((f) => [f.item, f.error.message])).toEqual([
      [7, 'record 7 refused'],
      [63, 'record 63 refused'],
    ]);
    expect([...w.written].sort((a, b) => a - b)).toEqual(items.filter((i) => i !== 7 && i !== 63));
    // Bisecting: a few dozen calls, not one per record.
    expect(w.calls.length).toBeLessThan(30);
  });

  it("throws a failure that is not a record's, writing nothing more", async () => {
    const down = new Error('connection refused');
    const write = jest.fn(async () => Promise.reject(down));
    await expect(writeIsolatingFailures([1, 2, 3], write, isRecord)).rejects.toBe(down);
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('does not call the writer for nothing', async () => {
    const write = jest.fn(async () => undefined);
    expect(await writeIsolatingFailures([], write, isRecord)).toEqual([]);
    expect(write).not.toHaveBeenCalled();
  });
});
