import { IMAGE_TOKEN_ALLOWANCE, type Capability } from '@gateway/contracts';
import type { Usage } from './request-cost';

/** No tokenizer runs here: two characters per token is above what real tokenizers produce for text. */
const CHARS_PER_TOKEN = 2;

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * An image block of any family: oaic `image_url`, responses `input_image`, msgc `image` (URL or
 * base64 source), a genc part with `inlineData` or `fileData`.
 */
function isImageBlock(node: Record<string, unknown>): boolean {
  const type = node.type;
  if (type === 'image_url' || type === 'input_image') return true;
  if (type === 'image' && typeof node.source === 'object') return true;
  return node.inlineData !== undefined || node.fileData !== undefined;
}

/** The image blocks under `root`, and the characters of their JSON (an image's URL or bytes cost its allowance, not their length). Iterative: a deeply nested body cannot overflow the stack. */
function imagesIn(root: unknown): { images: number; chars: number } {
  let images = 0;
  let chars = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const record = node as Record<string, unknown>;
    if (isImageBlock(record)) {
      images++;
      chars += JSON.stringify(record).length;
      continue;
    }
    for (const key in record) stack.push(record[key]);
  }
  return { images, chars };
}

/** An upper bound of the input tokens of a request body: its text, plus a fixed allowance per image (URL or inline). */
export function estimateInputTokens(input: unknown): number {
  if (input === undefined || input === null) return 0;
  if (typeof input === 'string') return Math.ceil(input.length / CHARS_PER_TOKEN);
  const text = JSON.stringify(input) ?? '';
  const { images, chars } = imagesIn(input);
  return Math.ceil(Math.max(0, text.length - chars) / CHARS_PER_TOKEN) + images * IMAGE_TOKEN_ALLOWANCE;
}

/** The output cap a chat body asks for: max_completion_tokens / max_tokens / max_output_tokens / generationConfig.maxOutputTokens. */
function outputCapOf(body: Record<string, unknown>): number | undefined {
  const generation = body.generationConfig as { maxOutputTokens?: unknown } | undefined;
  return (
    positiveInt(body.max_completion_tokens) ?? positiveInt(body.max_tokens) ?? positiveInt(body.max_output_tokens) ?? positiveInt(generation?.maxOutputTokens)
  );
}

/** How many answers a chat body asks for, each up to the output cap: oaic `n` / `best_of`, genc `candidateCount`. */
function choicesOf(body: Record<string, unknown>): number {
  const generation = body.generationConfig as { candidateCount?: unknown } | undefined;
  return Math.max(positiveInt(body.n) ?? 1, positiveInt(body.best_of) ?? 1, positiveInt(generation?.candidateCount) ?? 1);
}

/**
 * The most a request may use, from its body: input from its size (tool definitions and instructions
 * included), output from its cap (or the model's) times the answers it asks for.
 */
export function maxUsageOf(capability: Capability, body: Record<string, unknown>, defaultMaxTokens: number): Usage {
  // oaic messages/prompt/input, msgc messages + system, genc contents + systemInstruction; tools of each.
  const input = estimateInputTokens([
    body.messages ?? body.prompt ?? body.input ?? body.contents,
    body.system ?? body.systemInstruction ?? body.instructions,
    body.tools,
  ]);
  switch (capability) {
    case 'chat':
      return { inputTokens: input, outputTokens: (outputCapOf(body) ?? defaultMaxTokens) * choicesOf(body) };
    case 'image':
      return { inputTokens: input, outputTokens: 0, images: positiveInt(body.n) ?? 1 };
    default:
      return { inputTokens: input, outputTokens: 0 };
  }
}
