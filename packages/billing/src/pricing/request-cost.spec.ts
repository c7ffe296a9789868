import { costOf, effectivePrices } from './request-cost';

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
});
