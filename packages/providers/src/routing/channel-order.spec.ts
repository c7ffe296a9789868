import { orderChannels } from './channel-order';

const ch = (id: string, priority: number, weight = 1) => ({ id, priority, weight });

/** A scripted random source: returns the given values in turn. */
function script(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

describe('orderChannels', () => {
  it('puts lower priority numbers first', () => {
    const ordered = orderChannels([ch('c', 2), ch('a', 0), ch('b', 1)], script(0));
    expect(ordered.map((c) => c.id)).toEqual(['a', 'b', 'c']);
  });

  it('picks by weight within one priority', () => {
    const channels = [ch('light', 0, 1), ch('heavy', 0, 3), ch('backup', 1, 100)];
    // 0.1 * 4 = 0.4 falls in light's [0,1); 0.5 * 4 = 2 falls in heavy's [1,4).
    expect(orderChannels(channels, script(0.1, 0)).map((c) => c.id)).toEqual(['light', 'heavy', 'backup']);
    expect(orderChannels(channels, script(0.5, 0)).map((c) => c.id)).toEqual(['heavy', 'light', 'backup']);
  });

  it('spreads traffic in proportion to weight', () => {
    const channels = [ch('a', 0, 1), ch('b', 0, 3)];
    let seed = 42;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    let firstB = 0;
    for (let i = 0; i < 4000; i++) if (orderChannels(channels, random)[0]!.id === 'b') firstB += 1;
    expect(firstB / 4000).toBeGreaterThan(0.7);
    expect(firstB / 4000).toBeLessThan(0.8);
  });

  it('keeps every channel exactly once', () => {
    const channels = [ch('a', 0, 2), ch('b', 0, 1), ch('c', 0, 5), ch('d', 3)];
    const ordered = orderChannels(channels);
    expect([...ordered].map((c) => c.id).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(ordered[3]!.id).toBe('d');
  });
});
