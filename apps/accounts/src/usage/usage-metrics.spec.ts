import { sampleUsageEvent } from '@gateway/contracts';
import { gatewayMetrics } from '@gateway/platform';
import { countWritten } from './usage-metrics';

async function value(metric: { get(): Promise<{ values: Array<{ labels: Record<string, unknown>; value: number }> }> }, labels: Record<string, string>) {
  const found = (await metric.get()).values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return found?.value ?? 0;
}

describe('usage metrics', () => {
  it('counts written records by kind, and the cost of those whose publisher settled them itself', async () => {
    const task = sampleUsageEvent({ kind: 'music_task', modelId: 'metrics-music', costMicros: '50000' });
    const chat = sampleUsageEvent({ modelId: 'metrics-chat', settlement: { action: 'settle', micros: '70' } });
    const skipped = sampleUsageEvent({ kind: 'media_task', modelId: 'metrics-media', costMicros: '9' });
    const before = await value(gatewayMetrics.usageRecords, { kind: 'music_task' });
    countWritten([task, chat, skipped], new Set([task.requestId, chat.requestId]));
    expect(await value(gatewayMetrics.usageRecords, { kind: 'music_task' })).toBe(before + 1);
    expect(await value(gatewayMetrics.cost, { model: 'metrics-music', kind: 'music_task' })).toBe(50000);
    // The chat service counts what it settles; a row not written (a redelivery) counts nothing.
    expect(await value(gatewayMetrics.cost, { model: 'metrics-chat' })).toBe(0);
    expect(await value(gatewayMetrics.cost, { model: 'metrics-media' })).toBe(0);
  });
});
