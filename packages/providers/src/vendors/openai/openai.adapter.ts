// Pure transforms between the gateway's oaic bodies and an OpenAI-compatible upstream: the request (model
// swapped for the channel's upstream name, everything else passed on as sent), the answer (parsed where we
// rely on it, model mapped back to the public id), and token usage.
import { GatewayError } from '@gateway/contracts';
import type { z } from 'zod';
import { encodeMultipart, type MultipartFile } from '../../http/multipart.encoder';
import type { ChannelTarget, OaicOperation, UpstreamRequest } from '../../provider.types';
import { OPENAI_PATHS, STREAMABLE, USAGE_OPT_IN, upstreamUrl } from './openai-operations';
import {
  ChatCompletion,
  EmbeddingList,
  ImageList,
  ModerationResult,
  OpenaiUsage,
  ResponseObject,
  TextCompletion,
  Transcription,
} from './openai-response.schema';

export interface ToUpstreamOptions {
  stream: boolean;
  /** The uploaded audio for transcriptions/translations; `body` then holds the other form fields. */
  file?: Omit<MultipartFile, 'field'>;
}

/** `cachedTokens` are part of `promptTokens`, `reasoningTokens` part of `completionTokens`. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cachedTokens?: number;
  reasoningTokens?: number;
}

function baseHeaders(channel: ChannelTarget, accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept };
  if (channel.apiKey) headers.authorization = `Bearer ${channel.apiKey}`;
  return headers;
}

function formFields(body: Record<string, unknown>, upstreamModel: string): [string, string][] {
  const fields: [string, string][] = [['model', upstreamModel]];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null || key === 'file' || key === 'model') continue;
    const name = Array.isArray(value) && !key.endsWith('[]') ? `${key}[]` : key;
    for (const item of Array.isArray(value) ? value : [value]) {
      fields.push([name, typeof item === 'object' ? JSON.stringify(item) : String(item)]);
    }
  }
  return fields;
}

export function toUpstream(op: OaicOperation, body: Record<string, unknown>, channel: ChannelTarget, options: ToUpstreamOptions): UpstreamRequest {
  const url = upstreamUrl(channel.baseUrl, OPENAI_PATHS[op]);
  if (op === 'transcriptions' || op === 'translations') {
    if (!options.file) throw GatewayError.invalid("Missing required parameter: 'file'.", 'file');
    const multipart = encodeMultipart(formFields(body, channel.upstreamModel), { ...options.file, field: 'file' });
    return {
      method: 'POST',
      url,
      headers: { ...baseHeaders(channel, 'application/json'), 'content-type': multipart.contentType },
      body: multipart.body,
      stream: false,
    };
  }
  const stream = options.stream && STREAMABLE.has(op);
  const upstreamBody: Record<string, unknown> = { ...body, model: channel.upstreamModel };
  if (STREAMABLE.has(op) && (stream || body.stream !== undefined)) upstreamBody.stream = stream;
  if (stream && USAGE_OPT_IN.has(op) && body.stream_options == null) upstreamBody.stream_options = { include_usage: true };
  return {
    method: 'POST',
    url,
    headers: { ...baseHeaders(channel, stream ? 'text/event-stream' : op === 'speech' ? '*/*' : 'application/json'), 'content-type': 'application/json' },
    body: JSON.stringify(upstreamBody),
    stream,
  };
}

const ANSWER_SCHEMAS: Record<Exclude<OaicOperation, 'speech'>, z.ZodType> = {
  chat: ChatCompletion,
  completions: TextCompletion,
  responses: ResponseObject,
  embeddings: EmbeddingList,
  moderations: ModerationResult,
  images: ImageList,
  transcriptions: Transcription,
  translations: Transcription,
};

/** The public answer: the upstream body, checked where we rely on it, with the public model id. */
export function fromUpstream(op: OaicOperation, json: unknown, publicModelId: string): Record<string, unknown> {
  if (op === 'speech') throw new GatewayError('internal', 'Speech answers are audio bytes, not JSON.');
  const parsed = ANSWER_SCHEMAS[op].safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new GatewayError('upstream_error', `The upstream returned an unexpected ${op} body (${issue.path.join('.') || 'body'}: ${issue.message}).`);
  }
  const body = parsed.data as Record<string, unknown>;
  return 'model' in body || op === 'chat' || op === 'completions' || op === 'embeddings' || op === 'responses' ? { ...body, model: publicModelId } : body;
}

/** Token usage of an answer, a stream chunk, or a responses stream event; null when it carries none. */
export function extractUsage(value: unknown): TokenUsage | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as { usage?: unknown; response?: { usage?: unknown } };
  const parsed = OpenaiUsage.safeParse(record.usage ?? record.response?.usage);
  if (!parsed.success) return null;
  const usage = parsed.data;
  const prompt = usage.prompt_tokens ?? usage.input_tokens;
  const completion = usage.completion_tokens ?? usage.output_tokens ?? 0;
  if (prompt === undefined) return null;
  const counted: TokenUsage = { promptTokens: prompt, completionTokens: completion, totalTokens: usage.total_tokens ?? prompt + completion };
  const cached = (usage.prompt_tokens_details ?? usage.input_tokens_details)?.cached_tokens;
  const reasoning = (usage.completion_tokens_details ?? usage.output_tokens_details)?.reasoning_tokens;
  if (cached) counted.cachedTokens = cached;
  if (reasoning) counted.reasoningTokens = reasoning;
  return counted;
}
