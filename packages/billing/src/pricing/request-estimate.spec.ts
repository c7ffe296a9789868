import { IMAGE_TOKEN_ALLOWANCE } from '@gateway/contracts';
import { estimateInputTokens, maxUsageOf } from './request-estimate';

const text = (body: unknown) => Math.ceil(JSON.stringify(body).length / 2);
const url = (i: number) => `https://images.example.com/photo-${i}.png`;

describe('request estimate', () => {
  it('takes the output cap from max_tokens, max_completion_tokens, max_output_tokens, maxOutputTokens, or the model default', () => {
    expect(maxUsageOf('chat', { messages: [], max_tokens: 50 }, 4096).outputTokens).toBe(50);
    expect(maxUsageOf('chat', { messages: [], max_completion_tokens: 70, max_tokens: 50 }, 4096).outputTokens).toBe(70);
    expect(maxUsageOf('chat', { input: 'hi', max_output_tokens: 9 }, 4096).outputTokens).toBe(9);
    expect(maxUsageOf('chat', { contents: [], generationConfig: { maxOutputTokens: 12 } }, 4096).outputTokens).toBe(12);
    expect(maxUsageOf('chat', { messages: [] }, 4096).outputTokens).toBe(4096);
    expect(maxUsageOf('embedding', { input: 'hello' }, 4096)).toEqual({ inputTokens: text(['hello', null, null]), outputTokens: 0 });
    expect(maxUsageOf('image', { prompt: 'a cat', n: 3 }, 4096).images).toBe(3);
  });

  it('reserves every answer asked for: n, best_of and candidateCount multiply the cap', () => {
    expect(maxUsageOf('chat', { messages: [], max_tokens: 50, n: 3 }, 4096).outputTokens).toBe(150);
    expect(maxUsageOf('chat', { prompt: 'x', max_tokens: 10, n: 2, best_of: 5 }, 4096).outputTokens).toBe(50);
    expect(maxUsageOf('chat', { contents: [], generationConfig: { candidateCount: 4 } }, 100).outputTokens).toBe(400);
  });

  it('counts tool definitions and responses instructions as input', () => {
    const tools = [
      { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string', description: 'x'.repeat(1000) } } } } },
    ];
    const bare = maxUsageOf('chat', { messages: [{ role: 'user', content: 'hi' }] }, 10).inputTokens;
    expect(maxUsageOf('chat', { messages: [{ role: 'user', content: 'hi' }], tools }, 10).inputTokens).toBeGreaterThan(bare + 500);
    expect(maxUsageOf('chat', { input: 'hi', instructions: 'y'.repeat(1000) }, 10).inputTokens).toBeGreaterThan(500);
  });

  it('estimates text at two characters a token', () => {
    expect(estimateInputTokens('abcd')).toBe(2);
    expect(estimateInputTokens([{ role: 'user', content: 'hello there' }])).toBe(text([{ role: 'user', content: 'hello there' }]));
  });

  it('counts an image by URL at the per-image allowance in every family', () => {
    const oaic = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          ...Array.from({ length: 200 }, (_, i) => ({ type: 'image_url', image_url: { url: url(i), detail: 'high' } })),
        ],
      },
    ];
    expect(estimateInputTokens(oaic)).toBeGreaterThanOrEqual(200 * IMAGE_TOKEN_ALLOWANCE);
    expect(estimateInputTokens(oaic)).toBeLessThan(200 * IMAGE_TOKEN_ALLOWANCE + 200);
    const responses = [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'what?' },
          { type: 'input_image', image_url: url(1) },
        ],
      },
    ];
    expect(estimateInputTokens(responses)).toBeGreaterThanOrEqual(IMAGE_TOKEN_ALLOWANCE);
    const msgc = [
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url: url(2) } },
          { type: 'text', text: 'what?' },
        ],
      },
    ];
    expect(estimateInputTokens(msgc)).toBeGreaterThanOrEqual(IMAGE_TOKEN_ALLOWANCE);
    const genc = [
      {
        role: 'user',
        parts: [{ text: 'what?' }, { fileData: { mimeType: 'image/png', fileUri: url(3) } }, { fileData: { mimeType: 'image/png', fileUri: url(4) } }],
      },
    ];
    expect(estimateInputTokens(genc)).toBeGreaterThanOrEqual(2 * IMAGE_TOKEN_ALLOWANCE);
  });

  it('counts an inline base64 image at the allowance, not by its bytes, in every family', () => {
    const bytes = 'A'.repeat(100_000);
    const blocks = [
      { type: 'image_url', image_url: { url: `data:image/png;base64,${bytes}` } },
      { type: 'input_image', image_url: `data:image/png;base64,${bytes}` },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: bytes } },
      { inlineData: { mimeType: 'image/png', data: bytes } },
    ];
    for (const block of blocks) {
      const estimate = estimateInputTokens([{ role: 'user', content: [block] }]);
      expect(estimate).toBeGreaterThanOrEqual(IMAGE_TOKEN_ALLOWANCE);
      expect(estimate).toBeLessThan(IMAGE_TOKEN_ALLOWANCE + 20);
    }
  });

  it('does not take a text that talks about images for one', () => {
    const words = [{ role: 'user', content: 'an "image_url" block with "inlineData" and data:image/png;base64,AAAA' }];
    expect(estimateInputTokens(words)).toBe(text(words));
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let deep: unknown = { type: 'image_url', image_url: { url: url(0) } };
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect(estimateInputTokens([{ role: 'user', content: [deep] }])).toBeGreaterThanOrEqual(IMAGE_TOKEN_ALLOWANCE);
  });
});
