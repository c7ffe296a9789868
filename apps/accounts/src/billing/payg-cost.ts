import { costOf, effectivePrices } from '@gateway/billing';
import { catalogPricesOf, type StoredModelPrices } from '../catalog/stored-prices';

/** A model's catalog prices as stored, by model id. */
export interface StoredModel extends StoredModelPrices {
  id: string;
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
export function paygCostOf(usage: readonly ModelUsage[], models: readonly StoredModel[]): bigint {
  const byId = new Map(models.map((m) => [m.id, m]));
  let total = 0n;
  for (const u of usage) {
    const model = byId.get(u.model);
    if (!model) continue;
    const prices = effectivePrices(catalogPricesOf({ ...model, cacheHitMicrosPerMTok: undefined }));
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
