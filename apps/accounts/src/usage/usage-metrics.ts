import { usageKindOf, type UsageEvent } from '@gateway/contracts';
import { gatewayMetrics, tenantLabelOf } from '@gateway/platform';

/**
 * Counts the rows a write added, by kind; and the cost of those whose publisher ended their hold itself
 * (tasks: the chat service counts the cost of the requests it settles).
 */
export function countWritten(events: readonly UsageEvent[], written: Set<string>): void {
  for (const event of events) {
    if (!written.has(event.requestId)) continue;
    const kind = usageKindOf(event);
    const tenant = tenantLabelOf(event.tenantId);
    gatewayMetrics.usageRecords.inc({ kind, tenant });
    if (!event.settlement && event.costMicros && event.costMicros !== '0')
      gatewayMetrics.cost.inc({ model: event.modelId, tenant, kind }, Number(event.costMicros));
  }
}
