import { compareFigures, slopePerMinute, type AppFigures } from './soak-stats';

const figures = (rssBytes: number, lagP99Ms = 1, activeResources = 10): AppFigures => ({
  rssBytes,
  heapUsedBytes: 100,
  externalBytes: 5,
  lagP99Ms,
  activeResources,
});

describe('slopePerMinute', () => {
  it('gives the climb per minute of a straight trace', () => {
    expect(slopePerMinute([0, 30, 60, 90], [100, 110, 120, 130])).toBeCloseTo(20);
  });

  it('gives no climb for a trace that only wobbles about one level', () => {
    expect(slopePerMinute([0, 30, 60, 90, 120], [100, 104, 96, 104, 96])).toBeCloseTo(-1.6);
    expect(Math.abs(slopePerMinute([0, 30, 60, 90, 120], [100, 104, 96, 104, 96]))).toBeLessThan(2);
  });

  it('gives zero for fewer than two points or a single instant', () => {
    expect(slopePerMinute([10], [5])).toBe(0);
    expect(slopePerMinute([10, 10], [5, 9])).toBe(0);
  });
});

describe('compareFigures', () => {
  it('passes growth up to 10 % and fails beyond it', () => {
    const rss = (end: number) => compareFigures(figures(100), figures(end)).find((v) => v.measure === 'rssBytes')!.flat;
    expect(rss(110)).toBe(true);
    expect(rss(111)).toBe(false);
  });

  it('allows absolute slack on loop lag and open resources, and only reports external memory', () => {
    const verdicts = compareFigures(figures(100, 1, 10), figures(100, 3.1, 13));
    expect(verdicts.find((v) => v.measure === 'lagP99Ms')!.flat).toBe(true);
    expect(verdicts.find((v) => v.measure === 'activeResources')!.flat).toBe(true);
    expect(verdicts.find((v) => v.measure === 'externalBytes')!.flat).toBeNull();
  });
});
