/**
 * When to poll a task next, as a pure function of what is known: the recent times to completion of
 * tasks like it (a histogram over fixed buckets), the upstream's reported progress, the poll interval,
 * the backoff cap and the deadline. No history: the plain interval, as without a schedule.
 */

/** Upper edges of the histogram's buckets in ms: 250 ms growing by a quarter up to about 2.5 hours. */
export const HISTORY_EDGES_MS: readonly number[] = Array.from({ length: 42 }, (_, i) => Math.round(250 * 1.25 ** i));

/** Below this much (decayed) weight a histogram says too little to plan from. */
export const MIN_HISTORY_WEIGHT = 3;

/** The quantile a first poll aims at: few tasks end earlier. */
const EARLIEST = 0.1;
/** Past this quantile a task is late, and polls back off. */
const LATEST = 0.95;
/** Progress below this (%) says too little to extrapolate from. */
const MIN_PROGRESS = 5;
/** A progress estimate is aimed a little short, as progress is rarely linear. */
const PROGRESS_AIM = 0.8;

export interface PollPlanInput {
  nowMs: number;
  /** When the upstream took the task. */
  startedAtMs: number;
  deadlineAtMs: number;
  intervalMs: number;
  maxBackoffMs: number;
  /** Weights per bucket of HISTORY_EDGES_MS; null when there is none. */
  history: readonly number[] | null;
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

/** The wait before the first or next poll, in whole ms, never above the backoff cap nor past the deadline. */
export function nextPollDelayMs(input: PollPlanInput): number {
  const planned = input.callbackSafetyNetMs !== null ? input.callbackSafetyNetMs : learnedDelayMs(input);
  const toDeadline = Math.max(0, input.deadlineAtMs - input.nowMs);
  return Math.max(0, Math.floor(Math.min(planned, input.maxBackoffMs, toDeadline)));
}

function learnedDelayMs({ nowMs, startedAtMs, intervalMs, history, progress }: PollPlanInput): number {
  const earliest = quantileMs(history, EARLIEST);
  const latest = quantileMs(history, LATEST);
  if (earliest === null || latest === null) return intervalMs;
  const elapsed = Math.max(0, nowMs - startedAtMs);
  if (progress !== null && progress >= MIN_PROGRESS && progress < 100 && elapsed > 0) {
    const remaining = (elapsed * (100 - progress)) / progress;
    return Math.max(intervalMs, remaining * PROGRESS_AIM);
  }
  if (elapsed + intervalMs < earliest) return earliest - elapsed;
  if (elapsed <= latest) return intervalMs;
  // Later than nearly every task like it: the longer it runs, the less a poll soon is worth.
  return Math.max(intervalMs, elapsed - latest);
}
