// oaic embeddings to and from Titan and Cohere InvokeModel bodies.
import { EmbeddingRequest, parseOrThrow } from '@gateway/contracts';
import type { ChannelTarget } from '../../provider.types';
import { fromCohereEmbeddings, fromTitanEmbeddings, invokeInputTokens, toCohereEmbedRequest, toTitanEmbedRequests } from './bedrock-embeddings.transform';

const BASE = 'https://bedrock-runtime.us-east-1.amazonaws.com';
const channel = (upstreamModel: string): ChannelTarget => ({
  id: 'ch',
  providerId: 'p',
  protocol: 'openai',
  baseUrl: BASE,
  apiKey: null,
  upstreamModel,
  priority: 0,
  weight: 1,
});
const embed = (body: Record<string, unknown>) => parseOrThrow(EmbeddingRequest, { model: 'embed', ...body });

describe('Titan embeddings', () => {
  it('sends one InvokeModel call per input', () => {
    const calls = toTitanEmbedRequests(embed({ input: ['one', 'two'], dimensions: 256 }), channel('amazon.titan-embed-text-v2:0'));
    expect(calls.map((call) => call.url)).toEqual([1, 2].map(() => `${BASE}/model/amazon.titan-embed-text-v2%3A0/invoke`));
    expect(calls.map((call) => JSON.parse(call.body as string))).toEqual([
      { inputText: 'one', dimensions: 256, normalize: true },
      { inputText: 'two', dimensions: 256, normalize: true },
    ]);
  });

  it('refuses dimensions Titan does not offer, and token arrays', () => {
    expect(() => toTitanEmbedRequests(embed({ input: 'x', dimensions: 300 }), channel('amazon.titan-embed-text-v2:0'))).toThrow(
      expect.objectContaining({ param: 'dimensions' }),
    );
    expect(() => toTitanEmbedRequests(embed({ input: [1, 2, 3] }), channel('amazon.titan-embed-text-v2:0'))).toThrow(
      expect.objectContaining({ param: 'input' }),
    );
  });

  it('answers one oaic list with the summed usage, as floats or base64', () => {
    const answers = [
      { embedding: [0.5, -0.25], inputTextTokenCount: 1 },
      { embedding: [0.125, 1], inputTextTokenCount: 2 },
    ];
    expect(fromTitanEmbeddings(answers, embed({ input: ['one', 'two'] }), 'embed')).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.5, -0.25] },
        { object: 'embedding', index: 1, embedding: [0.125, 1] },
      ],
      model: 'embed',
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    const base64 = fromTitanEmbeddings(answers.slice(0, 1), embed({ input: 'one', encoding_format: 'base64' }), 'embed');
    const bytes = Buffer.from(base64.data[0]!.embedding as string, 'base64');
    expect(Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, 2))).toEqual([0.5, -0.25]);
    expect(() => fromTitanEmbeddings([{ embedding: 'x' }], embed({ input: 'one' }), 'embed')).toThrow(expect.objectContaining({ code: 'upstream_error' }));
  });
});

describe('Cohere embeddings', () => {
  it('sends the batch in one call, as documents to search', () => {
    const call = toCohereEmbedRequest(embed({ input: ['one', 'two'] }), channel('cohere.embed-english-v3'));
    expect(call.url).toBe(`${BASE}/model/cohere.embed-english-v3/invoke`);
    expect(JSON.parse(call.body as string)).toEqual({ texts: ['one', 'two'], input_type: 'search_document' });
    expect(() => toCohereEmbedRequest(embed({ input: Array.from({ length: 97 }, () => 'x') }), channel('cohere.embed-english-v3'))).toThrow(
      expect.objectContaining({ param: 'input' }),
    );
  });

  it("answers one oaic list, its usage from Bedrock's token header", () => {
    const tokens = invokeInputTokens({ 'x-amzn-bedrock-input-token-count': '4' });
    const answer = fromCohereEmbeddings(
      {
        embeddings: [
          [1, 0],
          [0, 1],
        ],
        id: 'e1',
        response_type: 'embeddings_floats',
        texts: ['one', 'two'],
      },
      embed({ input: ['one', 'two'] }),
      'embed',
      tokens,
    );
    expect(answer.data.map((item) => item.embedding)).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(answer.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
    expect(invokeInputTokens({})).toBe(0);
  });
});
