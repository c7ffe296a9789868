/**
 * What the edge records of every request once it is answered: one access line (ids, tenant, key id,
 * family, route, model, channel, status, latency, tokens: never a key or any request text), the
 * request series, and, when tracing is on, the request's server span, started as it arrives so the
 * NATS hops it makes are its children.
 */
import type { ReplyNote } from '@gateway/contracts';
import { extractHttpTraceContext, gatewayMetrics, SpanKind, trace, tracer, tracingOn, type AppLogger, type Span, type TraceContext } from '@gateway/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { familyOfPath } from '../errors/error-dialect';
import { clientRequestIdOf } from '../routing/request-id';
import type { HttpMetrics } from './http-metrics';

declare module 'fastify' {
  interface FastifyRequest {
    /** How the service served the request (model, channel, tokens), from its reply. */
    replyNote: ReplyNote | null;
    /** Seconds from arrival to the first streamed event written. */
    firstEventSeconds: number | null;
    /** The error code the request was answered with, if any. */
    errorCode: string | null;
    /** The request's trace (tracing on only): the context its NATS requests carry. */
    traceContext: TraceContext | null;
    traceSpan: Span | null;
  }
}

const REFUSALS = new Set(['insufficient_quota', 'budget_exceeded', 'rate_limited']);

function modelOf(request: FastifyRequest): string {
  const noted = request.replyNote?.model;
  if (noted) return noted;
  const body = request.body as { model?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.model === 'string') return body.model.slice(0, 256);
  const params = request.params as { model?: unknown } | undefined;
  return typeof params?.model === 'string' ? params.model.slice(0, 256) : '';
}

/** Ops routes (probes, metrics, docs) are neither logged nor traced: scrapers call them every few seconds. */
function isOpsRoute(routeId: string): boolean {
  return routeId.startsWith('ops.') || routeId.startsWith('docs.');
}

function startSpan(request: FastifyRequest): void {
  const parent = extractHttpTraceContext(request.headers);
  const span = tracer().startSpan(
    `${request.method} ${request.routeOptions.url ?? 'unmatched'}`,
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'http.route': request.routeOptions.url ?? '', 'url.path': request.url.split('?')[0] },
    },
    parent,
  );
  request.traceSpan = span;
  request.traceContext = trace.setSpan(parent, span);
}

function endSpan(request: FastifyRequest, reply: FastifyReply, family: string, model: string): void {
  const span = request.traceSpan!;
  const key = request.apiKey;
  span.setAttribute('http.response.status_code', reply.statusCode);
  span.setAttribute('gateway.request.id', String(request.id));
  span.setAttribute('gateway.family', family);
  if (model) span.setAttribute('gen_ai.request.model', model);
  if (key) span.setAttribute('gateway.tenant.id', key.tenantId);
  if (reply.statusCode >= 500) span.setStatus({ code: 2 });
  span.end();
}

export function installRequestObserver(fastify: FastifyInstance, metrics: HttpMetrics, log: AppLogger): void {
  fastify.decorateRequest('replyNote', null);
  fastify.decorateRequest('firstEventSeconds', null);
  fastify.decorateRequest('errorCode', null);
  fastify.decorateRequest('traceContext', null);
  fastify.decorateRequest('traceSpan', null);
  if (tracingOn()) {
    fastify.addHook('onRequest', (request, _reply, done) => {
      if (!isOpsRoute(request.routeOptions.config?.routeId ?? '')) startSpan(request);
      done();
    });
  }
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.config?.routeId ?? 'unmatched';
    if (isOpsRoute(route)) return done();
    const family = request.routeOptions.config?.family ?? familyOfPath(request.url);
    const model = modelOf(request);
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    metrics.byModel.inc({ family, route, model, status });
    metrics.latency.observe({ family, route, model }, seconds);
    if (request.firstEventSeconds !== null) metrics.timeToFirstToken.observe({ family, route, model }, request.firstEventSeconds);
    if (request.errorCode !== null && REFUSALS.has(request.errorCode)) gatewayMetrics.refusals.inc({ reason: request.errorCode });
    if (request.traceSpan) endSpan(request, reply, family, model);
    const key = request.apiKey;
    const note = request.replyNote;
    log.info(
      {
        requestId: request.id,
        clientRequestId: clientRequestIdOf(request.headers),
        tenantId: key?.tenantId,
        keyId: key?.keyId,
        family,
        route,
        model: model || undefined,
        channel: note?.channel,
        status,
        errorCode: request.errorCode ?? undefined,
        latencyMs: Math.round(reply.elapsedTime * 100) / 100,
        firstEventMs: request.firstEventSeconds === null ? undefined : Math.round(request.firstEventSeconds * 100_000) / 100,
        inputTokens: note?.inputTokens,
        outputTokens: note?.outputTokens,
      },
      'access',
    );
    done();
  });
}
