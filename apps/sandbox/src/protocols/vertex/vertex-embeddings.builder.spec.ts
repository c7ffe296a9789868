import { embedContentBody, predictEmbeddingsBody } from './vertex-embeddings.builder';

describe('Vertex embeddings builders', () => {
  it('answers predict with one unit vector and token statistics per instance', () => {
    const { answer, tokens } = predictEmbeddingsBody({ instances: [{ content: 'alpha beta' }, { content: 'gamma' }], parameters: { outputDimensionality: 8 } });
    const predictions = answer.predictions as { embeddings: { values: number[]; statistics: { token_count: number; truncated: boolean } } }[];
    expect(predictions.map((p) => p.embeddings.statistics)).toEqual([
      { token_count: 2, truncated: false },
      { token_count: 1, truncated: false },
    ]);
    expect(predictions[0]!.embeddings.values).toHaveLength(8);
    expect(Math.hypot(...predictions[0]!.embeddings.values)).toBeCloseTo(1, 5);
    expect(answer.metadata).toEqual({ billableCharacterCount: 15 });
    expect(tokens).toBe(3);
  });

  it('answers embedContent with the same vector for the same text, 768 values by default', () => {
    const first = embedContentBody({ content: { parts: [{ text: 'alpha beta' }] } });
    const again = embedContentBody({ content: { parts: [{ text: 'alpha beta' }] } });
    expect((first.answer.embedding as { values: number[] }).values).toHaveLength(768);
    expect(first.answer).toEqual(again.answer);
    expect(first.answer.usageMetadata).toEqual({ promptTokenCount: 2, totalTokenCount: 2 });
  });
});
