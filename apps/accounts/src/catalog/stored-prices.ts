import type { CatalogPrices } from '@gateway/contracts';

/** A model's prices as the catalog table stores them, in micro-units; a cache price of null is none set. */
export interface StoredModelPrices {
  inputMicrosPerMTok: bigint;
  outputMicrosPerMTok: bigint;
  perImageMicros: bigint;
  perSecondMicros: bigint;
  perTaskMicros: bigint;
  cachedInputMicrosPerMTok: bigint | null;
  cacheWriteMicrosPerMTok: bigint | null;
  /** Absent where only the request prices matter (what usage would have cost). */
  cacheHitMicrosPerMTok?: bigint;
}

/** The stored prices as the catalog hands them to billing: micro-unit strings, each cache price only when set. */
export function catalogPricesOf(model: StoredModelPrices): CatalogPrices {
  return {
    inputPerMTok: model.inputMicrosPerMTok.toString(),
    outputPerMTok: model.outputMicrosPerMTok.toString(),
    perImage: model.perImageMicros.toString(),
    perSecond: model.perSecondMicros.toString(),
    perTask: model.perTaskMicros.toString(),
    ...(model.cachedInputMicrosPerMTok !== null ? { cachedInputPerMTok: model.cachedInputMicrosPerMTok.toString() } : {}),
    ...(model.cacheWriteMicrosPerMTok !== null ? { cacheWritePerMTok: model.cacheWriteMicrosPerMTok.toString() } : {}),
    ...(model.cacheHitMicrosPerMTok !== undefined && model.cacheHitMicrosPerMTok > 0n ? { cacheHitPerMTok: model.cacheHitMicrosPerMTok.toString() } : {}),
  };
}
