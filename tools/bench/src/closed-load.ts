/**
 * Closed-loop chat load from autocannon: each connection sends its next request as soon as the last one
 * answered. A load generator this lean leaves the two cores to the servers being measured.
 */
import autocannon from 'autocannon';

export interface ClosedLoad {
  /** The chat completions URL. */
  url: string;
  key: string;
  model: string;
  connections: number;
  seconds: number;
}

export interface ClosedLoadResult {
  rps: number;
  errors: number;
  /** Whole milliseconds, as autocannon reports them. */
  p99: number;
}

const WARMUP_S = 2;

export async function closedLoad(load: ClosedLoad): Promise<ClosedLoadResult> {
  const options = {
    url: load.url,
    method: 'POST',
    headers: { authorization: `Bearer ${load.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: load.model, messages: [{ role: 'user', content: 'Benchmark the gateway with a short question.' }] }),
    connections: load.connections,
  };
  await autocannon({ ...options, duration: WARMUP_S });
  const result = await autocannon({ ...options, duration: load.seconds });
  return { rps: result.requests.total / result.duration, errors: result.errors + result.timeouts + result.non2xx, p99: result.latency.p99 };
}
