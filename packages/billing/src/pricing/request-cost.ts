import type { CatalogPrices, PriceOverride } from '@gateway/contracts';

const PER_MILLION = 1_000_000n;

export interface Prices {
  inputPerMTok: bigint;
  outputPerMTok: bigint;
  perImage: bigint;
  perSecond: bigint;
  perTask: bigint;
}

/** What one request used (or may use at most), in the units prices are quoted in. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  images?: number;
  seconds?: number;
  tasks?: number;
}

/** The catalog's prices, each field replaced where a custom subscription overrides it. */
export function effectivePrices(catalog: CatalogPrices, override?: PriceOverride): Prices {
  const pick = (field: keyof CatalogPrices) => BigInt(override?.[field] ?? catalog[field]);
  return {
    inputPerMTok: pick('inputPerMTok'),
    outputPerMTok: pick('outputPerMTok'),
    perImage: pick('perImage'),
    perSecond: pick('perSecond'),
    perTask: pick('perTask'),
  };
}

/** Cost in micro-units, rounded up to a whole micro so that no billable use is free. */
export function costOf(prices: Prices, usage: Usage): bigint {
  const tokenMicros = BigInt(usage.inputTokens) * prices.inputPerMTok + BigInt(usage.outputTokens) * prices.outputPerMTok;
  const tokens = (tokenMicros + PER_MILLION - 1n) / PER_MILLION;
  const seconds = BigInt(Math.ceil(usage.seconds ?? 0));
  return tokens + BigInt(usage.images ?? 0) * prices.perImage + seconds * prices.perSecond + BigInt(usage.tasks ?? 0) * prices.perTask;
}
