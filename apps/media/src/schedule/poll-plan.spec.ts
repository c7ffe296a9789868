import fc from 'fast-check';
import { bucketOf, HISTORY_EDGES_MS, nextPollDelayMs, quantileMs, type PollPlanInput } from './poll-plan';

/** A histogram with `count` tasks each ending after one of `durations` (ms). */
function historyOf(durations: readonly number[]): number[] {
  const weights = HISTORY_EDGES_MS.map(() => 0);
  for (const d of durations) weights[bucketOf(d)]! += 1;
  return weights;
}

const base: PollPlanInput = {
  nowMs: 1_000_000,
  startedAtMs: 1_000_000,
  deadlineAtMs: 1_000_000 + 1_800_000,
  intervalMs: 1000,
  maxBackoffMs: 30_000,
  history: null,
  progress: null,
  callbackSafetyNetMs: null,
};

const input = fc.record({
  nowMs: fc.integer({ min: 0, max: 10_000_000 }),
  elapsedMs: fc.integer({ min: 0, max: 4_000_000 }),
  deadlineInMs: fc.integer({ min: -100_000, max: 4_000_000 }),
  intervalMs: fc.integer({ min: 50, max: 60_000 }),
  maxBackoffMs: fc.integer({ min: 100, max: 600_000 }),
  history: fc.option(fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { minLength: HISTORY_EDGES_MS.length, maxLength: HISTORY_EDGES_MS.length })),
  progress: fc.option(fc.integer({ min: 0, max: 100 })),
  callbackSafetyNetMs: fc.option(fc.integer({ min: 1000, max: 600_000 })),
});

type Values = typeof input extends fc.Arbitrary<infer T> ? T : never;

function planOf(v: Values): PollPlanInput {
  return { ...v, startedAtMs: v.nowMs - v.elapsedMs, deadlineAtMs: v.nowMs + v.deadlineInMs };
}

describe('nextPollDelayMs', () => {
  it('never schedules a poll past the deadline', () => {
    fc.assert(
      fc.property(input, (v) => {
        const plan = planOf(v);
        expect(plan.nowMs + nextPollDelayMs(plan)).toBeLessThanOrEqual(Math.max(plan.nowMs, plan.deadlineAtMs));
      }),
    );
  });

  it('never waits longer than the backoff cap, nor less than nothing', () => {
    fc.assert(
      fc.property(input, (v) => {
        const delay = nextPollDelayMs(planOf(v));
        expect(delay).toBeLessThanOrEqual(v.maxBackoffMs);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(delay)).toBe(true);
      }),
    );
  });

  it('waits the plain interval on a cold start (no history), whatever the progress', () => {
    fc.assert(
      fc.property(input, (v) => {
        const plan = { ...planOf(v), history: null, callbackSafetyNetMs: null, deadlineAtMs: v.nowMs + 10_000_000 };
        expect(nextPollDelayMs(plan)).toBe(Math.min(v.intervalMs, v.maxBackoffMs));
      }),
    );
  });

  it('treats a history lighter than a few tasks as none', () => {
    expect(nextPollDelayMs({ ...base, history: historyOf([20_000, 21_000]) })).toBe(1000);
  });

  it('polls first near the earliest completions, then at the interval, then backs off', () => {
    const history = historyOf(Array.from({ length: 100 }, (_, i) => 20_000 + i * 200));
    const first = nextPollDelayMs({ ...base, history });
    expect(first).toBeGreaterThan(18_000);
    expect(first).toBeLessThanOrEqual(22_500);
    expect(nextPollDelayMs({ ...base, history, nowMs: base.startedAtMs + 30_000 })).toBe(1000);
    const late = nextPollDelayMs({ ...base, history, nowMs: base.startedAtMs + 100_000 });
    expect(late).toBeGreaterThan(30_000 / 2);
    expect(late).toBeLessThanOrEqual(30_000);
  });

  it('extrapolates the upstream progress where it reports one', () => {
    const history = historyOf(Array.from({ length: 50 }, () => 60_000));
    // 25 % after 10 s: about 30 s left, aimed a little short.
    expect(nextPollDelayMs({ ...base, history, progress: 25, nowMs: base.startedAtMs + 10_000 })).toBe(24_000);
    expect(nextPollDelayMs({ ...base, history, progress: 99, nowMs: base.startedAtMs + 10_000 })).toBe(1000);
  });

  it('waits the safety-net period when the upstream calls back', () => {
    const history = historyOf(Array.from({ length: 50 }, () => 5000));
    expect(nextPollDelayMs({ ...base, history, callbackSafetyNetMs: 30_000 })).toBe(30_000);
    expect(nextPollDelayMs({ ...base, callbackSafetyNetMs: 30_000, maxBackoffMs: 10_000 })).toBe(10_000);
  });
});

describe('quantileMs', () => {
  it('is monotone in q and within the buckets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 9_000_000 }), { minLength: 3, maxLength: 200 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (durations, a, b) => {
          const history = historyOf(durations);
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(quantileMs(history, lo)!).toBeLessThanOrEqual(quantileMs(history, hi)!);
          expect(quantileMs(history, hi)!).toBeLessThanOrEqual(HISTORY_EDGES_MS[HISTORY_EDGES_MS.length - 1]!);
        },
      ),
    );
  });
});
