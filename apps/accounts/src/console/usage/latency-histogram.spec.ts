import { percentileOf } from './latency-histogram';

describe('percentileOf', () => {
  it('is exact below 128 ms (nearest rank)', () => {
    const buckets = Array.from({ length: 100 }, (_, i) => ({ bucket: i + 1, count: 1 }));
    expect(percentileOf(buckets, 0.5)).toBe(50);
    expect(percentileOf(buckets, 0.99)).toBe(99);
    expect(percentileOf(buckets, 1)).toBe(100);
  });

  it('reads a wider bucket at its middle, whatever order the rows came in', () => {
    expect(
      percentileOf(
        [
          { bucket: 2048, count: 5 },
          { bucket: 10, count: 5 },
        ],
        0.99,
      ),
    ).toBe(2048 + 31.5);
    expect(percentileOf([{ bucket: 200, count: 3 }], 0.5)).toBe(203.5);
  });

  it('is null when nothing was counted', () => {
    expect(percentileOf([], 0.5)).toBeNull();
  });
});
