import { Holds } from './holds';

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('Holds', () => {
  it('lets `after` pieces of matching work start, holds the next until the hold is lifted, and leaves other keys alone', async () => {
    const holds = new Holds();
    holds.set({ prefix: 'line slow-', after: 2 });
    expect(holds.tryStart('line slow-0')).toBe(true);
    expect(holds.tryStart('line slow-1')).toBe(true);
    expect(holds.tryStart('other')).toBe(true);

    let admitted = false;
    const third = holds.admit('line slow-2').then(() => (admitted = true));
    await turns(100);
    expect(admitted).toBe(false);
    expect(holds.list()).toEqual([{ prefix: 'line slow-', after: 2, started: 2 }]);

    expect(holds.lift('line slow-')).toBe(true);
    await third;
    expect(admitted).toBe(true);
    expect(holds.lift('line slow-')).toBe(false);
  });

  it('lets a held piece of work go when its caller aborts', async () => {
    const holds = new Holds();
    holds.set({ prefix: 'p', after: 0 });
    const controller = new AbortController();
    let settled = false;
    const held = holds.admit('p1', controller.signal).then(() => (settled = true));
    await turns(100);
    expect(settled).toBe(false);
    controller.abort();
    await held;
    expect(settled).toBe(true);
    expect(holds.list()[0]!.started).toBe(0);
  });

  it('counts again from 0 when a hold is set again', () => {
    const holds = new Holds();
    holds.set({ prefix: 'p', after: 1 });
    expect(holds.tryStart('p')).toBe(true);
    expect(holds.tryStart('p')).toBe(false);
    holds.set({ prefix: 'p', after: 1 });
    expect(holds.tryStart('p')).toBe(true);
  });
});
