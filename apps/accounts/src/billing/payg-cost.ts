import { costOf, effectivePrices } from '@gateway/billing';

/** A model's catalog prices as stored. */
export interface StoredModelPrices {
  id: string;
  inputMicrosPerMTok: bigint;
  outputMicrosPerMTok: bigint;
  perImageMicros: bigint;
  perSecondMicros: bigint;
  perTaskMicros: bigint;
  cachedInputMicrosPerMTok: bigint | null;
  cacheWriteMicrosPerMTok: bigint | null;
}

/** One model's usage summed over a window. */
export interface ModelUsage {
  model: string;
  promptTokens: bigint;
  completionTokens: bigint;
  cachedTokens: bigint;
  seconds: number;
  images: bigint;
  tasks: bigint;
}

/**
 * What usage would have cost at the catalog's pay-as-you-go prices (no subscription's overrides), each
 * model's sums priced at once; a model no longer in the catalog costs nothing.
 */
export function paygCostOf(usage: readonly ModelUsage[], models: readonly StoredModelPrices[]): bigint {
  const byId = new Map(models.map((m) => [m.id, m]));
  let total = 0n;
  for (const u of usage) {
    const model = byId.get(u.model);
    if (!model) continue;
    const prices = effectivePrices({
      inputPerMTok: model.inputMicrosPerMTok.toString(),
      outputPerMTok: model.outputMicrosPerMTok.toString(),
      perImage: model.perImageMicros.toString(),
      perSecond: model.perSecondMicros.toString(),
      perTask: model.perTaskMicros.toString(),
      ...(model.cachedInputMicrosPerMTok !== null ? { cachedInputPerMTok: model.cachedInputMicrosPerMTok.toString() } : {}),
      ...(model.cacheWriteMicrosPerMTok !== null ? { cacheWritePerMTok: model.cacheWriteMicrosPerMTok.toString() } : {}),
    });
    total += costOf(prices, {
      inputTokens: Number(u.promptTokens),
      outputTokens: Number(u.completionTokens),
      cachedInputTokens: Number(u.cachedTokens),
      seconds: u.seconds,
      images: Number(u.images),
      tasks: Number(u.tasks),
    });
  }
  return total;
}
