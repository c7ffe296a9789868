/**
 * What a request's usage event tells operators: token and cost series by model, the reply note the
 * edge's access line reads (model, channel, tokens), and the GenAI attributes of the request's span.
 */
import { usageKindOf, type HoldSettlement, type ReplyNote, type UsageEvent } from '@gateway/contracts';
import { gatewayMetrics, tenantLabelOf, trace, tracingOn } from '@gateway/platform';

function chargedMicros(settlement: HoldSettlement | null | undefined): number {
  if (!settlement || settlement.action === 'release') return 0;
  return Number(settlement.micros);
}

export function observeUsage(event: UsageEvent, settlement: HoldSettlement | null | undefined, note?: ReplyNote, finishReasons?: readonly string[]): void {
  const model = event.modelId;
  const tenant = tenantLabelOf(event.tenantId);
  if (event.promptTokens > 0) gatewayMetrics.tokens.inc({ model, direction: 'input', tenant }, event.promptTokens);
  if (event.completionTokens > 0) gatewayMetrics.tokens.inc({ model, direction: 'output', tenant }, event.completionTokens);
  const micros = chargedMicros(settlement);
  if (micros > 0) gatewayMetrics.cost.inc({ model, tenant, kind: usageKindOf(event) }, micros);
  if (note) {
    note.model = model || undefined;
    note.channel = event.channelId ?? undefined;
    note.inputTokens = event.promptTokens;
    note.outputTokens = event.completionTokens;
    note.outcome = event.outcome;
  }
  if (!tracingOn()) return;
  trace.getActiveSpan()?.setAttributes({
    'gen_ai.request.model': model,
    'gen_ai.usage.input_tokens': event.promptTokens,
    'gen_ai.usage.output_tokens': event.completionTokens,
    'gateway.tenant.id': event.tenantId,
    'gateway.channel': event.channelId ?? '',
    'gateway.outcome': event.outcome,
    ...(finishReasons?.length ? { 'gen_ai.response.finish_reasons': [...finishReasons] } : {}),
  });
}
