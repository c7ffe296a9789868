import type { CatalogPrices, PriceOverride } from '@gateway/contracts';

const PER_MILLION = 1_000_000n;

/** `cachedInputPerMTok` and `cacheWritePerMTok` price the prompt tokens an upstream's prompt cache read or wrote. */
export interface Prices {
  inputPerMTok: bigint;
  outputPerMTok: bigint;
  perImage: bigint;
  perSecond: bigint;
  perTask: bigint;
  cachedInputPerMTok: bigint;
  cacheWritePerMTok: bigint;
}

/**
 * What one request used (or may use at most), in the units prices are quoted in. `cachedInputTokens`
 * and `cacheWriteTokens` are part of `inputTokens`; reasoning tokens are part of `outputTokens`.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  images?: number;
  seconds?: number;
  tasks?: number;
}

/** The catalog's prices, each field replaced where a custom subscription overrides it; cache prices default to the input price. */
export function effectivePrices(catalog: CatalogPrices, override?: PriceOverride): Prices {
  const pick = (field: 'inputPerMTok' | 'outputPerMTok' | 'perImage' | 'perSecond' | 'perTask') => BigInt(override?.[field] ?? catalog[field]);
  const input = pick('inputPerMTok');
  const cache = (field: 'cachedInputPerMTok' | 'cacheWritePerMTok') => {
    const price = override?.[field] ?? catalog[field];
    return price === undefined ? input : BigInt(price);
  };
  return {
    inputPerMTok: input,
    outputPerMTok: pick('outputPerMTok'),
    perImage: pick('perImage'),
    perSecond: pick('perSecond'),
    perTask: pick('perTask'),
    cachedInputPerMTok: cache('cachedInputPerMTok'),
    cacheWritePerMTok: cache('cacheWritePerMTok'),
  };
}

/** Cost in micro-units, rounded up to a whole micro so that no billable use is free. */
export function costOf(prices: Prices, usage: Usage): bigint {
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
  const tokenMicros =
    BigInt(usage.inputTokens - cached - written) * prices.inputPerMTok +
    BigInt(cached) * prices.cachedInputPerMTok +
    BigInt(written) * prices.cacheWritePerMTok +
    BigInt(usage.outputTokens) * prices.outputPerMTok;
  const tokens = (tokenMicros + PER_MILLION - 1n) / PER_MILLION;
  const seconds = BigInt(Math.ceil(usage.seconds ?? 0));
  return tokens + BigInt(usage.images ?? 0) * prices.perImage + seconds * prices.perSecond + BigInt(usage.tasks ?? 0) * prices.perTask;
}

/** An answer served from the response cache: its input and output tokens at the catalog's (or override's) hit price, default free. */
export function cacheHitCostOf(catalog: CatalogPrices, tokens: { inputTokens: number; outputTokens: number }, override?: PriceOverride): bigint {
  const price = BigInt(override?.cacheHitPerMTok ?? catalog.cacheHitPerMTok ?? '0');
  return (BigInt(tokens.inputTokens + tokens.outputTokens) * price + PER_MILLION - 1n) / PER_MILLION;
}
