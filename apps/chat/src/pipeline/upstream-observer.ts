/**
 * Watches the upstream attempts of one request: latency to response headers, errors and failovers by
 * channel, and, with tracing on, each attempt's client span with the GenAI attributes (the vendor
 * system and the upstream model asked).
 */
import type { CatalogChannel } from '@gateway/contracts';
import type { UpstreamResponse } from '@gateway/providers';
import { endSpanWithError, gatewayMetrics, SpanKind, trace, traceContext, tracer, tracingOn } from '@gateway/platform';

/** The GenAI semantic conventions' names for the upstream protocols. */
const GEN_AI_SYSTEM: Record<string, string> = { openai: 'openai', anthropic: 'anthropic', gemini: 'gcp.gemini' };

export function systemOf(channel: CatalogChannel): string {
  return GEN_AI_SYSTEM[channel.protocol] ?? channel.protocol;
}

export class UpstreamAttempts {
  private previous: CatalogChannel | undefined;

  /** One attempt on `channel`; an attempt after another is a failover away from the one before. */
  async send(channel: CatalogChannel, send: () => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
    if (this.previous) gatewayMetrics.upstreamFailovers.inc({ channel: this.previous.id });
    this.previous = channel;
    const system = systemOf(channel);
    const started = performance.now();
    const span = tracingOn()
      ? tracer().startSpan(`chat ${channel.upstreamModel}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.system': system,
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': channel.upstreamModel,
            'gateway.channel': channel.id,
            'server.address': new URL(channel.baseUrl).host,
          },
        })
      : undefined;
    try {
      const response = span ? await traceContext.with(trace.setSpan(traceContext.active(), span), send) : await send();
      gatewayMetrics.upstreamDuration.observe({ channel: channel.id, system }, (performance.now() - started) / 1000);
      if (response.status >= 400) gatewayMetrics.upstreamErrors.inc({ channel: channel.id, status: String(response.status) });
      if (span) {
        span.setAttribute('http.response.status_code', response.status);
        if (response.status >= 400) span.setStatus({ code: 2 });
        span.end();
      }
      return response;
    } catch (error) {
      gatewayMetrics.upstreamErrors.inc({ channel: channel.id, status: 'error' });
      if (span) endSpanWithError(span, error);
      throw error;
    }
  }
}
