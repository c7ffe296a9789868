import { distinctRounds, StatementBatcher } from './statement-batcher';

describe('StatementBatcher', () => {
  it('runs the calls of one event-loop turn as one batch and answers each in order', async () => {
    const runs: number[][] = [];
    const batcher = new StatementBatcher(async (inputs: number[]) => {
      runs.push(inputs);
      return inputs.map((n) => n * 10);
    });
    const first = await Promise.all([1, 2, 3].map((n) => batcher.call(n)));
    const second = await batcher.call(4);
    expect(first).toEqual([10, 20, 30]);
    expect(second).toBe(40);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('starts a batch as soon as it is full', async () => {
    const runs: number[][] = [];
    const batcher = new StatementBatcher(async (inputs: number[]) => (runs.push(inputs), inputs), 2);
    await Promise.all([1, 2, 3].map((n) => batcher.call(n)));
    expect(runs).toEqual([[1, 2], [3]]);
  });

  it('retries each input of a failed batch alone, so only the bad one fails', async () => {
    const batcher = new StatementBatcher(async (inputs: number[]) => {
      if (inputs.includes(13)) throw new Error('bad row 13');
      return inputs.map((n) => -n);
    });
    const results = await Promise.allSettled([12, 13, 14].map((n) => batcher.call(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: -12 },
      { status: 'rejected', reason: new Error('bad row 13') },
      { status: 'fulfilled', value: -14 },
    ]);
  });
});

describe('distinctRounds', () => {
  it('puts repeats of a key in later rounds, each round in order', () => {
    expect(distinctRounds(['a1', 'b1', 'a2', 'c1', 'a3', 'b2'], (s) => s[0]!)).toEqual([['a1', 'b1', 'c1'], ['a2', 'b2'], ['a3']]);
  });
});
