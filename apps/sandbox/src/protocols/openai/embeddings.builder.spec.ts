import { embeddingsBody, embeddingVector, moderationBody } from './embeddings.builder';
import { EmbeddingRequest, ModerationRequest } from './openai.schemas';

describe('embeddings and moderation builders', () => {
  it('returns one unit vector of the asked dimensions per input', () => {
    const body = embeddingsBody(EmbeddingRequest.parse({ model: 'e', input: ['a', 'b c'], dimensions: 8 }), 'e') as {
      data: { index: number; embedding: number[] }[];
      usage: { prompt_tokens: number };
    };
    expect(body.data.map((item) => item.index)).toEqual([0, 1]);
    for (const item of body.data) {
      expect(item.embedding).toHaveLength(8);
      expect(Math.sqrt(item.embedding.reduce((sum, value) => sum + value * value, 0))).toBeCloseTo(1, 5);
    }
    expect(body.usage.prompt_tokens).toBe(3);
    expect(embeddingVector('a', 8)).toEqual(body.data[0]!.embedding);
  });

  it('encodes base64 as little-endian float32 of the same vector', () => {
    const body = embeddingsBody(EmbeddingRequest.parse({ model: 'e', input: 'x', dimensions: 4, encoding_format: 'base64' }), 'e') as {
      data: { embedding: string }[];
    };
    const bytes = Buffer.from(body.data[0]!.embedding, 'base64');
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
    expect(decoded).toEqual(embeddingVector('x', 4));
  });

  it('flags violent text only', () => {
    const body = moderationBody(ModerationRequest.parse({ input: ['I will kill it', 'a nice day'] }), 'modr-1') as {
      results: { flagged: boolean; categories: Record<string, boolean> }[];
    };
    expect(body.results.map((result) => result.flagged)).toEqual([true, false]);
    expect(body.results[0]!.categories.violence).toBe(true);
  });
});
