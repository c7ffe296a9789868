/**
 * What a process tells about its own health on request (soak runs, operators): memory, event-loop
 * delay since the previous reading, and how many handles it holds open. Every app answers the same
 * way: the NATS services and the edge on SUBJECTS.ops.processStats, the sandbox on an HTTP route.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { z } from 'zod';

export const ProcessStats = z.object({
  app: z.string(),
  pid: z.number().int(),
  rssBytes: z.number().int().nonnegative(),
  heapUsedBytes: z.number().int().nonnegative(),
  /** Memory of C++ objects bound to JS ones, Buffers among them: what RSS holds beyond the heap. */
  externalBytes: z.number().int().nonnegative(),
  /** Event-loop delay since the previous reading (or since start), in milliseconds. */
  eventLoopDelayMs: z.object({ mean: z.number().nonnegative(), p99: z.number().nonnegative(), max: z.number().nonnegative() }),
  /** process.getActiveResourcesInfo().length: sockets, timers, handles the process keeps open. */
  activeResources: z.number().int().nonnegative(),
});
export type ProcessStats = z.infer<typeof ProcessStats>;

/** A stats request may ask for a full collection first (honoured only where node runs with --expose-gc), so heap used is what is live. */
export const ProcessStatsRequest = z.object({ collectGarbage: z.boolean().default(false) });
export type ProcessStatsRequest = z.infer<typeof ProcessStatsRequest>;

/** Resolution of the delay histogram: fine enough to see a 1 ms stall, cheap enough to leave on. */
const RESOLUTION_MS = 5;

/** The delay histogram stops this long after the last reading: an idle process must not wake every few ms for nobody. */
const IDLE_AFTER_MS = 60_000;

/**
 * Reads one process's stats; each reading restarts the delay histogram, so readings cover disjoint
 * windows. The histogram runs only from the first reading until a minute without one (the first
 * reading of a series reports no delay: its window has just begun).
 */
export class ProcessStatsProbe {
  private readonly delay: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private idle?: NodeJS.Timeout;

  constructor(private readonly app: string) {}

  read(request: ProcessStatsRequest = { collectGarbage: false }): ProcessStats {
    if (this.idle) this.idle.refresh();
    else {
      this.delay.enable();
      this.idle = setTimeout(() => this.stop(), IDLE_AFTER_MS).unref();
    }
    const gc = (globalThis as { gc?: () => void }).gc;
    if (request.collectGarbage && gc) gc();
    const memory = process.memoryUsage();
    // The histogram counts the timer's own resolution as delay: what is above it is the loop's lag.
    const lag = (ns: number) => (Number.isFinite(ns) ? Math.max(0, ns / 1e6 - RESOLUTION_MS) : 0);
    const stats: ProcessStats = {
      app: this.app,
      pid: process.pid,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      externalBytes: memory.external,
      eventLoopDelayMs: { mean: lag(this.delay.mean), p99: lag(this.delay.percentile(99)), max: lag(this.delay.max) },
      activeResources: process.getActiveResourcesInfo().length,
    };
    this.delay.reset();
    return stats;
  }

  stop(): void {
    this.delay.disable();
    this.delay.reset();
    clearTimeout(this.idle);
    this.idle = undefined;
  }
}
