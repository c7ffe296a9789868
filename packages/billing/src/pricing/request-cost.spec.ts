import { cacheHitCostOf, costOf, effectivePrices } from './request-cost';

const catalog = { inputPerMTok: '500000', outputPerMTok: '1500000', perImage: '40000', perSecond: '100', perTask: '0' };

describe('request cost', () => {
  it('prices tokens per million and rounds up to a whole micro', () => {
    const prices = effectivePrices(catalog);
    expect(costOf(prices, { inputTokens: 1_000_000, outputTokens: 0 })).toBe(500_000n);
    expect(costOf(prices, { inputTokens: 3, outputTokens: 5 })).toBe(9n); // 1.5 + 7.5 micros
    expect(costOf(prices, { inputTokens: 1, outputTokens: 0 })).toBe(1n); // 0.5 micro rounds up
    expect(costOf(prices, { inputTokens: 0, outputTokens: 0, images: 2, seconds: 2.2 })).toBe(80_300n);
  });

  it('uses a custom override field by field', () => {
    const prices = effectivePrices(catalog, { outputPerMTok: '3000000' });
    expect(prices.inputPerMTok).toBe(500_000n);
    expect(prices.outputPerMTok).toBe(3_000_000n);
  });

  it('prices cache reads and writes apart from the rest of the prompt, at the input price by default', () => {
    const cachedCatalog = { ...catalog, cachedInputPerMTok: '50000', cacheWritePerMTok: '625000' };
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 600_000, cacheWriteTokens: 100_000 };
    // 300k fresh at 0.5, 600k read at 0.05, 100k written at 0.625
    expect(costOf(effectivePrices(cachedCatalog), usage)).toBe(150_000n + 30_000n + 62_500n);
    expect(costOf(effectivePrices(catalog), usage)).toBe(500_000n);
    expect(effectivePrices(cachedCatalog, { cachedInputPerMTok: '0' }).cachedInputPerMTok).toBe(0n);
  });
});

describe('a response cache hit', () => {
  it('costs its input and output tokens at the hit price, rounded up, and nothing without one', () => {
    expect(cacheHitCostOf({ ...catalog, cacheHitPerMTok: '100000' }, { inputTokens: 12, outputTokens: 8 })).toBe(2n); // 2 micros
    expect(cacheHitCostOf({ ...catalog, cacheHitPerMTok: '100000' }, { inputTokens: 1, outputTokens: 0 })).toBe(1n);
    expect(cacheHitCostOf(catalog, { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(0n);
    expect(cacheHitCostOf({ ...catalog, cacheHitPerMTok: '100000' }, { inputTokens: 1_000_000, outputTokens: 0 }, { cacheHitPerMTok: '7' })).toBe(7n);
  });
});
