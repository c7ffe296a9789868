import { UpstreamBatchOutputLine } from '@gateway/providers';
import { z } from 'zod';
import { lineResultId, type BatchLineResult } from '../batch-line.runner';

/** Tokens a line used as the upstream reported them (chat and completions, responses, embeddings). */
export interface UpstreamUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
}

const Count = z.number().int().nonnegative().catch(0);

const ReportedUsage = z.looseObject({
  prompt_tokens: Count.optional(),
  completion_tokens: Count.optional(),
  input_tokens: Count.optional(),
  output_tokens: Count.optional(),
  prompt_tokens_details: z.looseObject({ cached_tokens: Count.optional() }).nullish().catch(null),
  input_tokens_details: z.looseObject({ cached_tokens: Count.optional() }).nullish().catch(null),
});

/** The usage a line's response body reports; none reported counts as zero tokens. */
export function usageOf(body: unknown): UpstreamUsage {
  const parsed = ReportedUsage.safeParse((body as { usage?: unknown } | null)?.usage);
  if (!parsed.success) return { promptTokens: 0, completionTokens: 0 };
  const u = parsed.data;
  const cached = u.prompt_tokens_details?.cached_tokens ?? u.input_tokens_details?.cached_tokens ?? 0;
  return {
    promptTokens: u.prompt_tokens ?? u.input_tokens ?? 0,
    completionTokens: u.completion_tokens ?? u.output_tokens ?? 0,
    ...(cached > 0 ? { cachedTokens: cached } : {}),
  };
}

/** One line of the upstream's output or error file, mapped back to the batch it belongs to. */
export interface MappedLine {
  customId: string;
  /** The upstream's status for the line; null when it never ran it (error only). */
  status: number | null;
  result: BatchLineResult;
  usage: UpstreamUsage;
}

/** Parses one JSONL line of an upstream output or error file; null when it is not a batch output line. */
export function parseOutputLine(text: string): UpstreamBatchOutputLine | null {
  try {
    const parsed = UpstreamBatchOutputLine.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The gateway's output line for an upstream's: the client's custom_id as it was, the line's own result id
 * (derived from the batch and the line, as on the line-by-line path), the upstream's status and request
 * id, and a body naming the catalog model instead of the upstream's model name.
 */
export function mapOutputLine(batchId: string, line: number, upstream: UpstreamBatchOutputLine, modelId: string): MappedLine {
  const id = lineResultId(batchId, line);
  const response = upstream.response;
  if (!response) {
    const error = { code: upstream.error?.code ?? 'upstream_error', message: upstream.error?.message ?? 'The upstream did not run this line.' };
    return {
      customId: upstream.custom_id,
      status: null,
      result: { id, custom_id: upstream.custom_id, response: null, error },
      usage: { promptTokens: 0, completionTokens: 0 },
    };
  }
  const body = response.body;
  const named =
    body !== null && typeof body === 'object' && !Array.isArray(body) && 'model' in body ? { ...(body as Record<string, unknown>), model: modelId } : body;
  return {
    customId: upstream.custom_id,
    status: response.status_code,
    result: {
      id,
      custom_id: upstream.custom_id,
      response: { status_code: response.status_code, request_id: response.request_id ?? '', body: named },
      error: null,
    },
    usage: usageOf(body),
  };
}
