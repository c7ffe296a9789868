/**
 * Process stats of every app of a running stack, read over a window: the NATS services and the edge
 * answer the process-stats broadcast, the sandbox its HTTP route. A window's figure per app is robust to
 * one reading's noise: RSS and open resources are medians, event-loop lag is the median of each
 * second's p99, heap and external memory are read after a full collection (the soak starts the apps with --expose-gc).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessStats, SUBJECTS, type ProcessStatsRequest } from '@gateway/contracts';
import { decodeJson, encodeJson } from '@gateway/platform';
import type { NatsConnection } from 'nats';
import { request } from 'undici';

export interface AppFigures {
  rssBytes: number;
  heapUsedBytes: number;
  externalBytes: number;
  lagP99Ms: number;
  activeResources: number;
}

/** Every process's answer to one broadcast, keyed `app` (or `app#pid` when an app runs more than one). */
async function readOnce(nats: NatsConnection, prefix: string, sandboxUrl: string, waitMs: number, collectGarbage = false): Promise<ProcessStats[]> {
  const inbox = `_INBOX.soak.${randomBytes(8).toString('hex')}`;
  const answers: ProcessStats[] = [];
  const subscription = nats.subscribe(inbox, { callback: (error, msg) => !error && answers.push(ProcessStats.parse(decodeJson(msg.data))) });
  const ask: ProcessStatsRequest = { collectGarbage };
  nats.publish(prefix + SUBJECTS.ops.processStats, encodeJson(ask), { reply: inbox });
  const sandbox = request(`${sandboxUrl}/_sandbox/process${collectGarbage ? '?gc=1' : ''}`).then(async (response) =>
    ProcessStats.parse(await response.body.json()),
  );
  await sleep(waitMs);
  subscription.unsubscribe();
  return [...answers, await sandbox];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function labelsOf(readings: ProcessStats[][]): Map<string, string> {
  const pidsOfApp = new Map<string, Set<number>>();
  for (const stats of readings.flat()) pidsOfApp.set(stats.app, (pidsOfApp.get(stats.app) ?? new Set()).add(stats.pid));
  const labels = new Map<string, string>();
  for (const stats of readings.flat()) labels.set(`${stats.app}#${stats.pid}`, pidsOfApp.get(stats.app)!.size > 1 ? `${stats.app}#${stats.pid}` : stats.app);
  return labels;
}

/**
 * Reads every app once a second for `seconds` (after one reading that only restarts the delay
 * histograms), then once after a full collection for the live heap, and sums each app's window up.
 */
export async function sampleWindow(nats: NatsConnection, prefix: string, sandboxUrl: string, seconds: number): Promise<Map<string, AppFigures>> {
  await readOnce(nats, prefix, sandboxUrl, 200);
  const readings: ProcessStats[][] = [];
  for (let i = 0; i < seconds; i++) readings.push(await readOnce(nats, prefix, sandboxUrl, 1000));
  const collected = new Map((await readOnce(nats, prefix, sandboxUrl, 1000, true)).map((s) => [`${s.app}#${s.pid}`, s]));
  const labels = labelsOf(readings);
  const byApp = new Map<string, ProcessStats[]>();
  for (const stats of readings.flat()) {
    const label = labels.get(`${stats.app}#${stats.pid}`)!;
    byApp.set(label, [...(byApp.get(label) ?? []), stats]);
  }
  const figures = new Map<string, AppFigures>();
  for (const [app, list] of [...byApp.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    figures.set(app, {
      rssBytes: median(list.map((s) => s.rssBytes)),
      heapUsedBytes: Math.min(...list.map((s) => collected.get(`${s.app}#${s.pid}`)?.heapUsedBytes ?? s.heapUsedBytes)),
      externalBytes: Math.min(...list.map((s) => collected.get(`${s.app}#${s.pid}`)?.externalBytes ?? s.externalBytes)),
      lagP99Ms: median(list.map((s) => s.eventLoopDelayMs.p99)),
      activeResources: median(list.map((s) => s.activeResources)),
    });
  }
  return figures;
}

/** Each app's RSS now (one reading, no collection): the points of the trace printed beside the two windows. */
export async function readRss(nats: NatsConnection, prefix: string, sandboxUrl: string): Promise<Map<string, number>> {
  const readings = await readOnce(nats, prefix, sandboxUrl, 500);
  const labels = labelsOf([readings]);
  return new Map(readings.map((s) => [labels.get(`${s.app}#${s.pid}`)!, s.rssBytes]));
}

/** Least-squares slope of `values` taken at `seconds`, per minute: how fast a trace still climbs. */
export function slopePerMinute(seconds: number[], values: number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const meanX = seconds.reduce((a, b) => a + b, 0) / n;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (seconds[i]! - meanX) * (values[i]! - meanY);
    den += (seconds[i]! - meanX) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60;
}

/** Growth allowed from the start window to the end one: 10 %, plus an absolute floor where a reading is coarse. */
export const FLAT = { ratio: 1.1, lagSlackMs: 2, resourceSlack: 2 } as const;

export interface FigureVerdict {
  measure: keyof AppFigures;
  start: number;
  end: number;
  /** Null for a figure shown only to explain another (external memory, when RSS grows). */
  flat: boolean | null;
}

export function compareFigures(start: AppFigures, end: AppFigures): FigureVerdict[] {
  const slack: Record<keyof AppFigures, number | null> = {
    rssBytes: 0,
    heapUsedBytes: 0,
    externalBytes: null,
    lagP99Ms: FLAT.lagSlackMs,
    activeResources: FLAT.resourceSlack,
  };
  return (Object.keys(slack) as Array<keyof AppFigures>).map((measure) => {
    const allowed = slack[measure];
    return { measure, start: start[measure], end: end[measure], flat: allowed === null ? null : end[measure] <= start[measure] * FLAT.ratio + allowed };
  });
}
