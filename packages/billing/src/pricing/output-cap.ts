import { GatewayError } from '@gateway/contracts';

/** The chat request bodies whose output the gateway bounds, each naming its cap and answer count its own way. */
export type ChatShape = 'oaic-chat' | 'oaic-completions' | 'oaic-responses' | 'msgc' | 'genc';

interface CountField {
  field: string;
  /** The most the vendor allows; more is refused rather than reserved. */
  max: number;
}

/** Where each shape names its output cap: the first present wins, the first listed is set when none is. */
const CAP_FIELDS: Record<ChatShape, readonly string[]> = {
  // max_completion_tokens is the field OpenAI's reasoning models accept (they refuse max_tokens).
  'oaic-chat': ['max_completion_tokens', 'max_tokens'],
  'oaic-completions': ['max_tokens'],
  'oaic-responses': ['max_output_tokens'],
  msgc: ['max_tokens'],
  genc: ['generationConfig.maxOutputTokens'],
};

/** Fields asking for several answers, each up to the cap: the reservation multiplies by them. */
const COUNT_FIELDS: Record<ChatShape, readonly CountField[]> = {
  'oaic-chat': [{ field: 'n', max: 128 }],
  'oaic-completions': [
    { field: 'n', max: 128 },
    { field: 'best_of', max: 20 },
  ],
  'oaic-responses': [],
  msgc: [],
  genc: [{ field: 'generationConfig.candidateCount', max: 8 }],
};

/** The object holding a field (one level of nesting at most, as in genc's generationConfig), created when `create` is set and it is absent. */
function holder(body: Record<string, unknown>, path: string, create: boolean): { target: Record<string, unknown> | undefined; key: string } {
  const dot = path.indexOf('.');
  if (dot < 0) return { target: body, key: path };
  const parent = path.slice(0, dot);
  if (body[parent] == null && create) body[parent] = {};
  const target = body[parent];
  const isRecord = typeof target === 'object' && target !== null && !Array.isArray(target);
  return { target: isRecord ? (target as Record<string, unknown>) : undefined, key: path.slice(dot + 1) };
}

function read(body: Record<string, unknown>, path: string): unknown {
  const { target, key } = holder(body, path, false);
  return target?.[key];
}

/**
 * Bounds a chat request's output by what its reservation covers, before the reservation and before any
 * upstream request is built from the body: a cap above the model's limit is refused, a request without
 * one gets the model's limit written into its body (so the upstream, same protocol or translated, is
 * asked for no more than was reserved), and answer counts are checked (the reservation multiplies by
 * them). Every refusal names its field.
 */
export function capChatOutput(shape: ChatShape, body: Record<string, unknown>, limit: number): void {
  const fields = CAP_FIELDS[shape];
  let capped = false;
  for (const field of fields) {
    const value = read(body, field);
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw GatewayError.invalid(`${field} must be a positive integer.`, field);
    if (value > limit) throw GatewayError.invalid(`${field} is ${value}, above this model's limit of ${limit} output tokens.`, field);
    capped = true;
  }
  if (!capped) {
    const { target, key } = holder(body, fields[0]!, true);
    if (!target) throw GatewayError.invalid(`${fields[0]!.split('.')[0]} must be an object.`, fields[0]!.split('.')[0]!);
    target[key] = limit;
  }
  for (const { field, max } of COUNT_FIELDS[shape]) {
    const value = read(body, field);
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
      throw GatewayError.invalid(`${field} must be an integer from 1 to ${max}.`, field);
    }
  }
}
