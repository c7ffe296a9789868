/**
 * Open-loop load at a fixed offered rate: request i is sent at start + i/rate whatever happened to the
 * requests before it, so a server that falls behind sees requests pile up and is charged the wait (a
 * request finding every connection busy queues in the pool, and its latency counts from the hand-over).
 * The scheduler's own lateness is not charged to the server. autocannon's rate options cannot do this:
 * they are a per-second budget each connection spends back to back, so every second starts with a burst
 * at saturation.
 */
import { Pool } from 'undici';

export interface PacedOptions {
  url: string;
  path: string;
  headers: Record<string, string>;
  /** Requests per second, offered evenly. */
  rate: number;
  connections: number;
  seconds: number;
}

export interface PacedResult {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

/** How often the scheduler wakes to send what has fallen due: each wake sends rate × TICK_MS / 1000 requests. */
const TICK_MS = 1;

/**
 * Calls `fire(i)` for i from 0 to total - 1, call i at start + i/rate (a call the scheduler is late for goes
 * at once, with the others due then), and resolves once the last one has been made.
 */
export function paceCalls(total: number, rate: number, fire: (index: number) => void): Promise<void> {
  const started = performance.now();
  let sent = 0;
  return new Promise((resolve) => {
    const tick = () => {
      const dueNow = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      for (; sent < dueNow; sent++) fire(sent);
      if (sent < total) setTimeout(tick, TICK_MS);
      else resolve();
    };
    tick();
  });
}

export async function pacedLoad(options: PacedOptions): Promise<PacedResult> {
  const pool = new Pool(options.url, { connections: options.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const total = Math.round(options.rate * options.seconds);
  const latencies = new Float64Array(total);
  let completed = 0;
  let errors = 0;
  const started = performance.now();
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => (finished = resolve));

  const fire = () => {
    const handedOver = performance.now();
    pool
      .request({ method: 'GET', path: options.path, headers: options.headers })
      .then(async (response) => {
        await response.body.dump();
        if (response.statusCode !== 200) errors++;
      })
      .catch(() => void errors++)
      .finally(() => {
        latencies[completed++] = performance.now() - handedOver;
        if (completed === total) finished();
      });
  };
  await paceCalls(total, options.rate, fire);
  await allDone;
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort();
  const at = (p: number) => latencies[Math.min(total - 1, Math.floor(total * p))]!;
  return { rps: total / elapsed, p50: at(0.5), p99: at(0.99), max: latencies[total - 1]!, errors };
}
