// oaic embeddings ↔ Bedrock InvokeModel for Titan (one text per call) and Cohere (a batch of texts per
// call). Token arrays have no text to send, so they are refused; base64 encoding is done here from floats.
import { GatewayError, parseOrThrow, type EmbeddingRequest, type EmbeddingResponse } from '@gateway/contracts';
import { z } from 'zod';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { parseUpstreamBody } from '../../ir/upstream-error';

export const TITAN_DIMENSIONS = [256, 512, 1024] as const;
/** Cohere embeds at most this many texts in one call. */
export const COHERE_MAX_TEXTS = 96;

export const TitanEmbedAnswer = z.looseObject({ embedding: z.array(z.number()), inputTextTokenCount: z.number().int().nonnegative() });
export type TitanEmbedAnswer = z.infer<typeof TitanEmbedAnswer>;
export const CohereEmbedAnswer = z.looseObject({ embeddings: z.array(z.array(z.number())), id: z.string(), texts: z.array(z.string()).optional() });
export type CohereEmbedAnswer = z.infer<typeof CohereEmbedAnswer>;

/** The texts of an embeddings request; token arrays have no text to send a cloud embedding model. */
export function embeddingTexts(request: EmbeddingRequest): string[] {
  const input = request.input;
  if (typeof input === 'string') return [input];
  if (input.every((item) => typeof item === 'string')) return input as string[];
  throw GatewayError.invalid('this model embeds text, not token arrays', 'input');
}

function invokeCall(channel: ChannelTarget, body: Record<string, unknown>): UpstreamRequest {
  return {
    method: 'POST',
    url: `${channel.baseUrl.replace(/\/+$/, '')}/model/${encodeURIComponent(channel.upstreamModel)}/invoke`,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    stream: false,
  };
}

/** One InvokeModel call per input: Titan embeds a single text. */
export function toTitanEmbedRequests(request: EmbeddingRequest, channel: ChannelTarget): UpstreamRequest[] {
  const dimensions = request.dimensions;
  if (dimensions !== undefined && !(TITAN_DIMENSIONS as readonly number[]).includes(dimensions))
    throw GatewayError.invalid(`this model embeds in ${TITAN_DIMENSIONS.join(', ')} dimensions`, 'dimensions');
  return embeddingTexts(request).map((inputText) => invokeCall(channel, { inputText, ...(dimensions !== undefined ? { dimensions } : {}), normalize: true }));
}

/** One InvokeModel call for the whole batch, embedded as documents to search. */
export function toCohereEmbedRequest(request: EmbeddingRequest, channel: ChannelTarget): UpstreamRequest {
  if (request.dimensions !== undefined) throw GatewayError.invalid('this model embeds in a fixed number of dimensions', 'dimensions');
  const texts = embeddingTexts(request);
  if (texts.length > COHERE_MAX_TEXTS) throw GatewayError.invalid(`this model embeds at most ${COHERE_MAX_TEXTS} texts per request`, 'input');
  return invokeCall(channel, { texts, input_type: 'search_document' });
}

function encode(vector: number[], format: EmbeddingRequest['encoding_format']): number[] | string {
  return format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
}

export function embeddingList(vectors: number[][], request: EmbeddingRequest, model: string, tokens: number): EmbeddingResponse {
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: encode(vector, request.encoding_format) })),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/** Titan's answers, in input order, as one oaic list; usage is the sum of their token counts. */
export function fromTitanEmbeddings(bodies: unknown[], request: EmbeddingRequest, model: string): EmbeddingResponse {
  const answers = bodies.map((body) => parseUpstreamBody(() => parseOrThrow(TitanEmbedAnswer, body)));
  const tokens = answers.reduce((sum, answer) => sum + answer.inputTextTokenCount, 0);
  return embeddingList(
    answers.map((answer) => answer.embedding),
    request,
    model,
    tokens,
  );
}

/** Cohere reports no tokens in its body: Bedrock's `x-amzn-bedrock-input-token-count` header carries them. */
export function fromCohereEmbeddings(body: unknown, request: EmbeddingRequest, model: string, inputTokens: number): EmbeddingResponse {
  const answer = parseUpstreamBody(() => parseOrThrow(CohereEmbedAnswer, body));
  return embeddingList(answer.embeddings, request, model, inputTokens);
}

/** The token count Bedrock puts in a header of every InvokeModel answer. */
export function invokeInputTokens(headers: Record<string, string | string[] | undefined>): number {
  const raw = headers['x-amzn-bedrock-input-token-count'];
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isInteger(value) && value >= 0 ? value : 0;
}
