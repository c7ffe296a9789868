/**
 * The fixed-rate rows of `npm run bench:webhooks`: every task's upstream callback sent open-loop at a rate
 * (callback i at start + i/rate, whatever the gateway answered before), each timed from its send to its
 * receiver's hit. A closed-loop burst charges each delivery the queue of the burst itself (64 callbacks in
 * flight at ~1,000 a second is 64 ms before any delivery starts), so latency targets are judged here, and
 * the CPU each process spent per delivery over the same window.
 */
import { paceCalls } from './paced-load';
import { cpuBetween, readCpu, type CpuGroup } from './process-cpu';

export interface PacedTask {
  taskId?: string;
  slow: boolean;
}

export interface PacedDeliveryOptions<T extends PacedTask> {
  /** In the order they are sent. */
  batch: readonly T[];
  /** Callbacks per second, offered evenly. */
  rate: number;
  /** Sends one task's complete callback; rejects when the intake did not accept it. */
  callBack: (task: T) => Promise<void>;
  /** When the task's healthy receiver was first hit (performance.now()), if it was. */
  hitAt: (taskId: string) => number | undefined;
  groups: readonly CpuGroup[];
  timeoutMs: number;
}

export interface PacedDeliveryResult {
  /** Deliveries to healthy receivers timed. */
  count: number;
  /** Callbacks the intake did not accept (not timed, not waited for). */
  refused: number;
  /** Accepted callbacks whose healthy receiver was not hit within `timeoutMs` (not timed). */
  missing: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  intake: { p50: number; p99: number };
  /** CPU µs per healthy delivery, by process group, from the first send to the last hit. */
  cpuPerDelivery: Map<string, number>;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function pacedDeliveries<T extends PacedTask>(options: PacedDeliveryOptions<T>): Promise<PacedDeliveryResult> {
  const { batch, hitAt } = options;
  const sentAt = new Float64Array(batch.length);
  const answered: number[] = [];
  const refused = new Set<number>();
  const calls: Promise<void>[] = [];
  const before = readCpu(options.groups);
  const started = performance.now();
  await paceCalls(batch.length, options.rate, (i) => {
    sentAt[i] = performance.now();
    calls.push(
      options.callBack(batch[i]!).then(
        () => void answered.push(performance.now() - sentAt[i]!),
        () => void refused.add(i),
      ),
    );
  });
  await Promise.all(calls);
  const accepted = batch.map((task, i) => ({ task, i })).filter(({ task, i }) => !task.slow && !refused.has(i));
  const deadline = Date.now() + options.timeoutMs;
  while (accepted.some(({ task }) => hitAt(task.taskId!) === undefined) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const used = cpuBetween(before, readCpu(options.groups));
  const healthy = accepted.filter(({ task }) => hitAt(task.taskId!) !== undefined);
  const hits = healthy.map(({ task }) => hitAt(task.taskId!)!);
  const latencies = healthy.map(({ i }, n) => hits[n]! - sentAt[i]!);
  const seconds = (Math.max(...hits) - started) / 1000;
  return {
    count: healthy.length,
    refused: refused.size,
    missing: accepted.length - healthy.length,
    perSecond: healthy.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    intake: { p50: percentile(answered, 50), p99: percentile(answered, 99) },
    cpuPerDelivery: new Map([...used].map(([name, micros]) => [name, micros / Math.max(1, healthy.length)])),
  };
}
