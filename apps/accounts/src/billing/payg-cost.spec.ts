import { paygCostOf, type ModelUsage, type StoredModel } from './payg-cost';

const chatModel: StoredModel = {
  id: 'gpt',
  inputMicrosPerMTok: 1_000_000n,
  outputMicrosPerMTok: 2_000_000n,
  perImageMicros: 0n,
  perSecondMicros: 0n,
  perTaskMicros: 0n,
  cachedInputMicrosPerMTok: 500_000n,
  cacheWriteMicrosPerMTok: null,
};
const imageModel: StoredModel = {
  ...chatModel,
  id: 'img',
  inputMicrosPerMTok: 0n,
  outputMicrosPerMTok: 0n,
  perImageMicros: 40_000n,
  perTaskMicros: 10_000n,
};
const usage = (model: string, over: Partial<ModelUsage> = {}): ModelUsage => ({
  model,
  promptTokens: 0n,
  completionTokens: 0n,
  cachedTokens: 0n,
  seconds: 0,
  images: 0n,
  tasks: 0n,
  ...over,
});

describe('paygCostOf', () => {
  it("prices each model's usage at its catalog prices and adds them up", () => {
    // 1,000 input tokens of which 400 cached: 600 × 1 + 400 × 0.5 = 800 micros; 500 output × 2 = 1,000 micros.
    const chat = usage('gpt', { promptTokens: 1000n, cachedTokens: 400n, completionTokens: 500n });
    expect(paygCostOf([chat], [chatModel])).toBe(1800n);
    // Three images and two tasks: 3 × 40,000 + 2 × 10,000.
    expect(paygCostOf([chat, usage('img', { images: 3n, tasks: 2n })], [chatModel, imageModel])).toBe(1800n + 140_000n);
  });

  it('counts nothing for a model the catalog no longer has', () => {
    expect(paygCostOf([usage('gone', { promptTokens: 10n ** 6n })], [chatModel])).toBe(0n);
  });
});
