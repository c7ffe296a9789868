import fc from 'fast-check';
import { bucketOf, HISTORY_EDGES_MS, nextPollDelayMs, pollPlanOf, quantileMs, type PollPlan, type PollPlanInput } from './poll-plan';

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
  plan: null,
  progress: null,
  callbackSafetyNetMs: null,
};

/** Uniform 20–40 s, as the bench's Kling-style tasks. */
const spread = historyOf(Array.from({ length: 200 }, (_, i) => 20_000 + i * 100));

/** The elapsed times (ms) at which a task that never ends is polled, following the plan from its create. */
function pollsOf(plan: PollPlan, until: number, lateBy: (n: number) => number = () => 0): number[] {
  const at: number[] = [];
  let now = base.startedAtMs;
  while (now - base.startedAtMs < until) {
    now += nextPollDelayMs({ ...base, plan, nowMs: now }) + lateBy(at.length);
    at.push(now - base.startedAtMs);
  }
  return at;
}

const input = fc.record({
  nowMs: fc.integer({ min: 0, max: 10_000_000 }),
  elapsedMs: fc.integer({ min: 0, max: 4_000_000 }),
  deadlineInMs: fc.integer({ min: -100_000, max: 4_000_000 }),
  intervalMs: fc.integer({ min: 50, max: 60_000 }),
  maxBackoffMs: fc.integer({ min: 100, max: 600_000 }),
  plan: fc.option(
    fc.record({
      firstMs: fc.double({ min: 0, max: 1e7, noNaN: true }),
      spacingMs: fc.double({ min: 1, max: 1e6, noNaN: true }),
      lateMs: fc.double({ min: 0, max: 1e7, noNaN: true }),
    }),
  ),
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

  it('waits the plain interval on a cold start (no plan), whatever the progress', () => {
    fc.assert(
      fc.property(input, (v) => {
        const plan = { ...planOf(v), plan: null, callbackSafetyNetMs: null, deadlineAtMs: v.nowMs + 10_000_000 };
        expect(nextPollDelayMs(plan)).toBe(Math.min(v.intervalMs, v.maxBackoffMs));
      }),
    );
  });

  it('polls first near the earliest completions, then on a grid across the window, then backs off', () => {
    const plan = pollPlanOf(spread, 1000)!;
    const at = pollsOf(plan, 120_000);
    expect(at[0]).toBeGreaterThan(20_000);
    expect(at[0]).toBeLessThanOrEqual(23_500);
    const inWindow = at.filter((t) => t <= 40_000);
    // Seven polls or so across the 20 s where these tasks end, each about 2.9 s after the one before.
    expect(inWindow.length).toBeGreaterThanOrEqual(6);
    expect(inWindow.length).toBeLessThanOrEqual(8);
    inWindow.slice(1).forEach((t, i) => expect(t - inWindow[i]!).toBeCloseTo(plan.spacingMs, -1));
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps[gaps.length - 1]).toBeGreaterThan(2 * plan.spacingMs);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000);
  });

  it('keeps to the grid when polls run late, without two polls close together', () => {
    const plan = pollPlanOf(spread, 1000)!;
    const onTime = pollsOf(plan, 40_000);
    const late = pollsOf(plan, 40_000, (n) => (n % 2 === 0 ? 400 : 0));
    // A poll run 400 ms late is followed by the next point of the grid, not by one a full spacing later.
    late.forEach((t, i) => expect(t - onTime[i]!).toBeLessThanOrEqual(400));
    const atMiss = nextPollDelayMs({ ...base, plan, nowMs: base.startedAtMs + plan.firstMs + plan.spacingMs * 0.9 });
    expect(atMiss).toBeGreaterThanOrEqual(plan.spacingMs / 2);
  });

  it('never polls again at once: at least half a spacing after a poll, even where the plan starts at zero', () => {
    expect(nextPollDelayMs({ ...base, plan: { firstMs: 0, spacingMs: 1000, lateMs: 60_000 } })).toBe(1000);
  });

  it('extrapolates the upstream progress where it reports one', () => {
    const plan = pollPlanOf(historyOf(Array.from({ length: 50 }, () => 60_000)), 1000);
    // 25 % after 10 s: about 30 s left, aimed a little short.
    expect(nextPollDelayMs({ ...base, plan, progress: 25, nowMs: base.startedAtMs + 10_000 })).toBe(24_000);
    expect(nextPollDelayMs({ ...base, plan, progress: 99, nowMs: base.startedAtMs + 10_000 })).toBe(1000);
  });

  it('waits the safety-net period when the upstream calls back', () => {
    const plan = pollPlanOf(historyOf(Array.from({ length: 50 }, () => 5000)), 1000);
    expect(nextPollDelayMs({ ...base, plan, callbackSafetyNetMs: 30_000 })).toBe(30_000);
    expect(nextPollDelayMs({ ...base, callbackSafetyNetMs: 30_000, maxBackoffMs: 10_000 })).toBe(10_000);
  });
});

describe('pollPlanOf', () => {
  it('makes no plan from no history, nor from one lighter than a few tasks', () => {
    expect(pollPlanOf(null, 1000)).toBeNull();
    expect(pollPlanOf(historyOf([20_000, 21_000]), 1000)).toBeNull();
  });

  it('spaces the polls so a task meets about seven across the window where tasks like it end', () => {
    const plan = pollPlanOf(spread, 1000)!;
    expect(plan.spacingMs).toBeGreaterThan(2500);
    expect(plan.spacingMs).toBeLessThan(3300);
    expect(plan.firstMs).toBeGreaterThan(20_000);
    expect(plan.firstMs).toBeLessThanOrEqual(quantileMs(spread, 0.1)!);
    expect(plan.lateMs).toBeGreaterThan(38_000);
    expect(plan.lateMs).toBeLessThan(42_000);
  });

  it('never spaces polls closer than the interval, and polls tasks that all take as long once or twice', () => {
    const plan = pollPlanOf(historyOf(Array.from({ length: 100 }, () => 30_000)), 2000)!;
    expect(plan.spacingMs).toBe(2000);
    const at = pollsOf(plan, 31_000);
    expect(at.filter((t) => t <= 31_000).length).toBeLessThanOrEqual(2);
  });

  it('keeps the first poll at or before the earliest tenth of completions, however wide the spread', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1000, max: 3_600_000 }), { minLength: 3, maxLength: 200 }),
        fc.integer({ min: 50, max: 10_000 }),
        (durations, interval) => {
          const history = historyOf(durations);
          const plan = pollPlanOf(history, interval)!;
          expect(plan.firstMs).toBeLessThanOrEqual(quantileMs(history, 0.1)!);
          expect(plan.spacingMs).toBeGreaterThanOrEqual(interval);
          expect(plan.lateMs).toBeGreaterThanOrEqual(quantileMs(history, 0.5)!);
        },
      ),
    );
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
