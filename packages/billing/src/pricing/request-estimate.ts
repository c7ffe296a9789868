import type { Capability } from '@gateway/contracts';
import type { Usage } from './request-cost';

const DATA_URL = /data:[^;"]{1,100};base64,[A-Za-z0-9+/=]+/g;
/** What an inline image may cost in input tokens at most (vision models bill images as tokens). */
const IMAGE_TOKENS = 1500;
/** No tokenizer runs here: two characters per token is above what real tokenizers produce for text. */
const CHARS_PER_TOKEN = 2;

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** An upper bound of the input tokens of a request body: its text, plus a fixed allowance per inline image. */
export function estimateInputTokens(input: unknown): number {
  if (input === undefined || input === null) return 0;
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  let images = 0;
  const stripped = text.replace(DATA_URL, () => {
    images++;
    return '';
  });
  return Math.ceil(stripped.length / CHARS_PER_TOKEN) + images * IMAGE_TOKENS;
}

/**
 * The most a request may use, from its body: input from its size, output from max_tokens /
 * max_completion_tokens / max_output_tokens, or the model's default cap.
 */
export function maxUsageOf(capability: Capability, body: Record<string, unknown>, defaultMaxTokens: number): Usage {
  // oaic messages/prompt/input, msgc messages + system, genc contents + systemInstruction.
  const input = estimateInputTokens([body.messages ?? body.prompt ?? body.input ?? body.contents, body.system ?? body.systemInstruction]);
  switch (capability) {
    case 'chat': {
      const generation = body.generationConfig as { maxOutputTokens?: unknown } | undefined;
      const cap =
        positiveInt(body.max_completion_tokens) ??
        positiveInt(body.max_tokens) ??
        positiveInt(body.max_output_tokens) ??
        positiveInt(generation?.maxOutputTokens) ??
        defaultMaxTokens;
      return { inputTokens: input, outputTokens: cap };
    }
    case 'image':
      return { inputTokens: input, outputTokens: 0, images: positiveInt(body.n) ?? 1 };
    default:
      return { inputTokens: input, outputTokens: 0 };
  }
}
