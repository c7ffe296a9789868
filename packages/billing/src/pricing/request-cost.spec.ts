import { costOf, effectivePrices } from './request-cost';
import { estimateInputTokens, maxUsageOf } from './request-estimate';

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

  it('takes the output cap from max_tokens, max_completion_tokens, or the model default', () => {
    expect(maxUsageOf('chat', { messages: [], max_tokens: 50 }, 4096).outputTokens).toBe(50);
    expect(maxUsageOf('chat', { messages: [], max_completion_tokens: 70, max_tokens: 50 }, 4096).outputTokens).toBe(70);
    expect(maxUsageOf('chat', { input: 'hi', max_output_tokens: 9 }, 4096).outputTokens).toBe(9);
    expect(maxUsageOf('chat', { messages: [] }, 4096).outputTokens).toBe(4096);
    expect(maxUsageOf('embedding', { input: 'hello' }, 4096)).toEqual({ inputTokens: 7, outputTokens: 0 });
    expect(maxUsageOf('image', { prompt: 'a cat', n: 3 }, 4096).images).toBe(3);
  });

  it('estimates input from text and counts inline images by a fixed allowance, not by their bytes', () => {
    expect(estimateInputTokens('abcd')).toBe(2);
    const big = `data:image/png;base64,${'A'.repeat(100_000)}`;
    expect(estimateInputTokens([{ type: 'image_url', image_url: { url: big } }])).toBeLessThan(1600);
  });
});
