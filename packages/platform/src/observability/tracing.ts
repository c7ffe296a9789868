/**
 * OpenTelemetry traces, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set (OTLP/HTTP). W3C trace context
 * rides in NATS message headers, so an edge request, the service that handles it and the upstream call
 * it makes are one trace. Off, nothing here allocates: call sites test `tracingOn()` first.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { MsgHdrs } from 'nats';

export { SpanKind, SpanStatusCode, context as traceContext, trace, type Context as TraceContext, type Span };

let sdk: NodeSDK | undefined;

/** Spans leave in batches this often: short enough that a trace shows up while one looks for it. */
const EXPORT_DELAY_MS = 500;

/**
 * Starts the SDK when `endpoint` is set. Its modules load only then: they cost a second of CPU at start,
 * which a process without tracing (and a restarted one, which must be back fast) does not pay.
 */
export async function startTracing(service: string, endpoint: string | undefined, exportTo?: SpanExporter): Promise<boolean> {
  if (!endpoint || sdk) return sdk !== undefined;
  const [{ NodeSDK }, { OTLPTraceExporter }, { BatchSpanProcessor }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-trace-base'),
  ]);
  // The OTLP/HTTP convention: the endpoint is a base URL, traces go to its /v1/traces.
  const exporter = exportTo ?? new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  sdk = new NodeSDK({
    serviceName: service,
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: EXPORT_DELAY_MS })],
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  return true;
}

export function tracingOn(): boolean {
  return sdk !== undefined;
}

/** Sends what is buffered and stops: on shutdown, so the last spans are not lost. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown().catch(() => undefined);
}

export function tracer() {
  return trace.getTracer('gateway');
}

const setter: TextMapSetter<MsgHdrs> = { set: (carrier, key, value) => carrier.set(key, value) };
const getter: TextMapGetter<MsgHdrs> = {
  get: (carrier, key) => carrier.get(key) || undefined,
  keys: (carrier) => carrier.keys(),
};

/** Writes the active trace context (traceparent, tracestate) into NATS headers. */
export function injectTraceContext(headers: MsgHdrs, from: Context = context.active()): void {
  propagation.inject(from, headers, setter);
}

/** The trace context a NATS message carries, or the active one when it carries none. */
export function extractTraceContext(headers: MsgHdrs | undefined): Context {
  return headers ? propagation.extract(context.active(), headers, getter) : context.active();
}

/** The trace context a client sent in its HTTP headers (traceparent), if any. */
export function extractHttpTraceContext(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** The active trace context as plain fields (traceparent, tracestate), for a record that outlives the call: a queued job. */
export function traceFields(): Record<string, string> {
  const fields: Record<string, string> = {};
  propagation.inject(context.active(), fields);
  return fields;
}

/** The trace context of fields written by `traceFields`. */
export function contextOfFields(fields: Record<string, string> | undefined): Context {
  return fields ? propagation.extract(ROOT_CONTEXT, fields) : ROOT_CONTEXT;
}

/** Records an error on the span and ends it. */
export function endSpanWithError(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.end();
}

/** Marks the active span (if tracing) as failed, without ending it. */
export function markSpanFailed(error: unknown): void {
  if (!sdk) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}
