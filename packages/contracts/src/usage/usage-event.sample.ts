import { randomUUID } from 'node:crypto';
import type { UsageEvent } from './usage-event.schema';

/** A valid usage event with fresh ids, for tests of the services that publish and write usage. */
export function sampleUsageEvent(overrides: Partial<UsageEvent> = {}): UsageEvent {
  return {
    requestId: randomUUID(),
    tenantId: randomUUID(),
    keyId: randomUUID(),
    modelId: 'sandbox-gpt',
    channelId: randomUUID(),
    family: 'oaic',
    route: 'oaic.chat',
    promptTokens: 7,
    completionTokens: 11,
    latencyMs: 12,
    outcome: 'ok',
    status: 200,
    at: new Date().toISOString(),
    ...overrides,
  };
}
