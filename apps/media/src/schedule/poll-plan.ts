/**
 * When to poll a task next, as pure functions of what is known. A task's plan is made once, when it is
 * created, from the recent times to completion of tasks like it (a histogram over fixed buckets): polls
 * on a grid from near the earliest completions, spaced so a task meets a fixed number of them across the
 * window where tasks like it end, then backing off. Made once, a plan does not follow the history while a
 * burst of tasks is running, when only the fast ones have ended yet. No history: the plain interval.
 */
import { z } from 'zod';

/** Upper edges of the histogram's buckets in ms: 250 ms growing by a tenth up to about 2.5 hours. */
export const HISTORY_EDGES_MS: readonly number[] = Array.from({ length: 111 }, (_, i) => Math.round(250 * 1.1 ** i));

/** Below this much (decayed) weight a histogram says too little to plan from. */
export const MIN_HISTORY_WEIGHT = 3;

/** The window where tasks end runs between these quantiles. */
const EARLIEST = 0.02;
const LATEST = 0.98;
/** A first poll never later than this quantile, however wide the spacing. */
const FIRST_AT_MOST = 0.1;
/** The polls a task meets across the window: fewer reads per task, or a shorter wait after its end. */
const POLLS_PER_WINDOW = 7;
/** Progress below this (%) says too little to extrapolate from. */
const MIN_PROGRESS = 5;
/** A progress estimate is aimed a little short, as progress is rarely linear. */
const PROGRESS_AIM = 0.8;

/** A task's learned schedule, in ms since the upstream took it: polls at `firstMs + k * spacingMs` until `lateMs`. */
export const PollPlan = z.object({
  firstMs: z.number().nonnegative(),
  spacingMs: z.number().positive(),
  lateMs: z.number().nonnegative(),
});
export type PollPlan = z.infer<typeof PollPlan>;

export interface PollPlanInput {
  nowMs: number;
  /** When the upstream took the task. */
  startedAtMs: number;
  deadlineAtMs: number;
  intervalMs: number;
  maxBackoffMs: number;
  /** The task's plan (pollPlanOf); null on a cold start. */
  plan: PollPlan | null;
  /** The upstream's last reported progress (0–100), null when it reports none. */
  progress: number | null;
  /** The wait between safety-net polls when the upstream calls back at the end; null when it does not. */
  callbackSafetyNetMs: number | null;
}

/** The bucket index a duration falls in. */
export function bucketOf(durationMs: number): number {
  const index = HISTORY_EDGES_MS.findIndex((edge) => durationMs <= edge);
  return index === -1 ? HISTORY_EDGES_MS.length - 1 : index;
}

/** The q-quantile of a histogram in ms, interpolated within its bucket; null when it holds too little weight. */
export function quantileMs(history: readonly number[] | null, q: number): number | null {
  if (!history) return null;
  const weights = history.map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (total < MIN_HISTORY_WEIGHT) return null;
  const target = q * total;
  let seen = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!;
    if (w > 0 && seen + w >= target) {
      const low = i === 0 ? 0 : HISTORY_EDGES_MS[i - 1]!;
      const high = HISTORY_EDGES_MS[Math.min(i, HISTORY_EDGES_MS.length - 1)]!;
      return low + (high - low) * Math.min(1, Math.max(0, (target - seen) / w));
    }
    seen += w;
  }
  return HISTORY_EDGES_MS[HISTORY_EDGES_MS.length - 1]!;
}

/** The plan for a task created now, from the history of tasks like it; null (the plain interval) without one. */
export function pollPlanOf(history: readonly number[] | null, intervalMs: number): PollPlan | null {
  const earliest = quantileMs(history, EARLIEST);
  const latest = quantileMs(history, LATEST);
  const firstAtMost = quantileMs(history, FIRST_AT_MOST);
  if (earliest === null || latest === null || firstAtMost === null) return null;
  const spacingMs = Math.max(intervalMs, (latest - earliest) / POLLS_PER_WINDOW);
  return { firstMs: Math.min(firstAtMost, earliest + spacingMs), spacingMs, lateMs: latest };
}

/** The wait before the first or next poll, in whole ms, never above the backoff cap nor past the deadline. */
export function nextPollDelayMs(input: PollPlanInput): number {
  const planned = input.callbackSafetyNetMs !== null ? input.callbackSafetyNetMs : plannedDelayMs(input);
  const toDeadline = Math.max(0, input.deadlineAtMs - input.nowMs);
  return Math.max(0, Math.floor(Math.min(planned, input.maxBackoffMs, toDeadline)));
}

function plannedDelayMs({ nowMs, startedAtMs, intervalMs, plan, progress }: PollPlanInput): number {
  if (plan === null) return intervalMs;
  const { firstMs, spacingMs, lateMs } = plan;
  const elapsed = Math.max(0, nowMs - startedAtMs);
  if (progress !== null && progress >= MIN_PROGRESS && progress < 100 && elapsed > 0) {
    const remaining = (elapsed * (100 - progress)) / progress;
    return Math.max(spacingMs, remaining * PROGRESS_AIM);
  }
  if (elapsed < firstMs - spacingMs / 2) return firstMs - elapsed;
  if (elapsed <= lateMs) {
    // The next point of the task's grid, so a poll run late does not push every later one back.
    const next = firstMs + spacingMs * (Math.floor((elapsed - firstMs) / spacingMs) + 1);
    return next - elapsed < spacingMs / 2 ? next - elapsed + spacingMs : next - elapsed;
  }
  // Later than nearly every task like it: the longer it runs, the less a poll soon is worth.
  return Math.max(spacingMs, elapsed - lateMs);
}
