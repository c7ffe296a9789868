import { randomBytes } from 'node:crypto';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import Redis from 'ioredis';
import { z } from 'zod';
import { startTracing, stopTracing, trace, traceContext, tracer } from '../observability/tracing';
import { QueueFactory } from './queue-factory';
import { queuePrefix } from './queue-prefix';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('trace context through a queued job', () => {
  const prefix = queuePrefix('tracing', `t${randomBytes(4).toString('hex')}.`);
  const exporter = new InMemorySpanExporter();
  let factory: QueueFactory;
  const redis = new Redis(REDIS_URL);

  beforeAll(async () => {
    await startTracing('queue-spec', 'http://127.0.0.1:4318', exporter);
    factory = new QueueFactory({ redis: REDIS_URL, prefix });
  });

  afterAll(async () => {
    await factory.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.unlink(...keys);
    redis.disconnect();
  });

  it("runs the job in a span whose parent is the span that queued it; the processor sees only the job's own fields", async () => {
    const seen: unknown[] = [];
    const processed = new Promise<void>((resolve) =>
      factory.worker('traced', z.object({ n: z.number() }), async (data) => {
        seen.push(data);
        resolve();
      }),
    );
    const request = tracer().startSpan('request');
    await traceContext.with(trace.setSpan(traceContext.active(), request), () => factory.queue('traced').add('job', { n: 1 }));
    request.end();
    await processed;
    // Spans leave the batch processor every half second.
    for (let i = 0; i < 50 && !exporter.getFinishedSpans().some((span) => span.name === 'traced process'); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const spans = exporter.getFinishedSpans();
    await stopTracing();

    expect(seen).toEqual([{ n: 1 }]);
    const job = spans.find((span) => span.name === 'traced process');
    expect(job?.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(job?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
  });
});
