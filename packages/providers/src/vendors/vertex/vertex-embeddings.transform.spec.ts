import { GatewayError } from '@gateway/contracts';
import { vertexChannel } from '../../../test/fixtures/chat-fixtures';
import { fromVertexEmbeddings, toVertexEmbeddingsRequest } from './vertex-embeddings.transform';

describe('embeddings on Vertex', () => {
  it('sends the texts as predict instances with the dimensions asked for', () => {
    const request = toVertexEmbeddingsRequest(
      { texts: ['a', 'b'], dimensions: 256, taskType: 'RETRIEVAL_QUERY' },
      vertexChannel('us-central1', 'text-embedding-005'),
    );
    expect(request.url).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-central1/publishers/google/models/text-embedding-005:predict',
    );
    expect(JSON.parse(request.body as string)).toEqual({
      instances: [
        { content: 'a', task_type: 'RETRIEVAL_QUERY' },
        { content: 'b', task_type: 'RETRIEVAL_QUERY' },
      ],
      parameters: { outputDimensionality: 256 },
    });
  });

  it('reads the vectors and sums the token counts', () => {
    const answer = {
      predictions: [
        { embeddings: { values: [0.1, 0.2], statistics: { token_count: 3, truncated: false } } },
        { embeddings: { values: [0.3, 0.4], statistics: { token_count: 4, truncated: false } } },
      ],
      metadata: { billableCharacterCount: 12 },
    };
    expect(fromVertexEmbeddings(answer)).toEqual({
      vectors: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
      promptTokens: 7,
    });
  });

  it('refuses an answer without predictions as the upstream fault', () => {
    let failure: unknown = null;
    try {
      fromVertexEmbeddings({ embeddings: [] });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ code: 'upstream_error', upstreamStatus: 502 });
  });
});
