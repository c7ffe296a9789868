import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import '../routing/route-config';

/** What the dead-letter gauge reads at each scrape: records held per durable consumer. */
export interface DeadLetterCounts {
  counts(): Promise<Record<string, number>>;
}

const EVENT_LOOP_SAMPLE_MS = 50;

/**
 * Request count and latency by route id and status. Its own registry (not prom-client's global one)
 * so several edge apps can live in one process, as they do in tests.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests answered by the edge',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time from request to response end at the edge',
    labelNames: ['route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  /** Requests by family, route, model and status: what SREs alert on (error rate per model). */
  readonly byModel = new Counter({
    name: 'gateway_requests_total',
    help: 'Requests answered by the edge, by family, route, model and status',
    labelNames: ['family', 'route', 'model', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Total time of a request at the edge (to the last byte of a stream), by family, route and model',
    labelNames: ['family', 'route', 'model'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  readonly timeToFirstToken = new Histogram({
    name: 'gateway_time_to_first_token_seconds',
    help: 'Time from a streamed request to its first event written to the client, by family, route and model',
    labelNames: ['family', 'route', 'model'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  constructor() {
    // Event-loop lag sampled every 50 ms rather than prom-client's 10: a timer that wakes the edge a hundred
    // times a second, idle or not, to refine a gauge that is scraped every few seconds.
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }

  /**
   * Records the durable writers could not write (usage, ledger), read from the dead-letter stream when
   * scraped, so an alert fires on a poison record whichever accounts replica dead-lettered it.
   */
  watchDeadLetters(source: DeadLetterCounts): void {
    new Gauge({
      name: 'gateway_dead_letters',
      help: 'Records held in the dead-letter stream, by the durable consumer that could not write them',
      labelNames: ['consumer'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const counts = await source.counts().catch(() => undefined);
        for (const [consumer, held] of Object.entries(counts ?? {})) this.set({ consumer }, held);
      },
    });
  }

  /** Observes in onResponse, after the bytes are out, so the client never waits on it. */
  install(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.config?.routeId ?? 'unmatched';
      this.requests.inc({ route, status: reply.statusCode });
      this.duration.observe({ route }, reply.elapsedTime / 1000);
      done();
    });
  }
}
