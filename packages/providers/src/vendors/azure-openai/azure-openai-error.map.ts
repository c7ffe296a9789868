// Azure OpenAI's non-2xx answers: OpenAI's error shape, plus the content filter's refusal
// ({error:{code:"content_filter", innererror:{code:"ResponsibleAIPolicyViolation", content_filter_result}}}),
// which becomes the client's 400 naming the categories that were filtered.
import { GatewayError } from '@gateway/contracts';
import { z } from 'zod';
import { clip } from '../../http/redact';
import type { UpstreamErrorOptions } from '../../ir/upstream-error';
import { fromUpstreamError } from '../openai/openai-error.map';

const FilterCategory = z.object({ filtered: z.boolean().optional(), severity: z.string().optional(), detected: z.boolean().optional() }).loose();

export const AzureContentFilterError = z.object({
  error: z
    .object({
      code: z.literal('content_filter'),
      message: z.string().optional(),
      param: z.string().nullish(),
      innererror: z
        .object({ code: z.string().optional(), content_filter_result: z.record(z.string(), z.unknown()).optional() })
        .loose()
        .optional(),
    })
    .loose(),
});

/** The categories a filter result marks as filtered, with their severity where it gives one. */
export function filteredCategories(result: Record<string, unknown> | undefined): string[] {
  const names: string[] = [];
  for (const [name, value] of Object.entries(result ?? {})) {
    const category = FilterCategory.safeParse(value);
    if (category.success && category.data.filtered) names.push(category.data.severity ? `${name} (${category.data.severity})` : name);
  }
  return names;
}

function contentFilterRefusal(bodyText: string): GatewayError | null {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return null;
  }
  const parsed = AzureContentFilterError.safeParse(json);
  if (!parsed.success) return null;
  const { innererror, param } = parsed.data.error;
  const categories = filteredCategories(innererror?.content_filter_result);
  const policy = innererror?.code ?? 'content_filter';
  const detail = categories.length > 0 ? `: ${categories.join(', ')}` : '';
  return new GatewayError('invalid_request', clip(`The upstream's content filter refused the prompt (${policy}${detail}).`), param ?? null, 400);
}

export function fromAzureError(status: number, bodyText: string, options: UpstreamErrorOptions = {}): GatewayError {
  return (status === 400 && contentFilterRefusal(bodyText)) || fromUpstreamError(status, bodyText, options);
}
