import { createHash } from 'node:crypto';

/** The client-facing call a cached answer belongs to: its family's operation shapes what is stored. */
export type CachedOperation = 'oaic.chat' | 'oaic.completions' | 'oaic.responses' | 'msgc.messages' | 'genc.generate';

/** Each family's operations whose answers the cache keeps, by the name the family's service gives them. */
const CACHED_OPERATIONS: Readonly<Record<'oaic' | 'msgc' | 'genc', Readonly<Record<string, CachedOperation>>>> = {
  oaic: { chat: 'oaic.chat', completions: 'oaic.completions', responses: 'oaic.responses' },
  msgc: { chat: 'msgc.messages' },
  genc: { chat: 'genc.generate' },
};

/** The cached operation of a family's chat call, or of one oaic operation (undefined: the cache keeps none of it). */
export function cachedOperationOf(family: 'oaic' | 'msgc' | 'genc'): CachedOperation;
export function cachedOperationOf(family: 'oaic', operation: string): CachedOperation | undefined;
export function cachedOperationOf(family: 'oaic' | 'msgc' | 'genc', operation = 'chat'): CachedOperation | undefined {
  return CACHED_OPERATIONS[family][operation];
}

/**
 * Top-level fields that never change an answer: whether it streams, who asked, labels and ids, and
 * hints to the upstream's own prompt cache. Everything else is part of the key, null and absent apart.
 */
const NOT_ANSWER_CHANGING: Readonly<Record<CachedOperation, ReadonlySet<string>>> = {
  'oaic.chat': new Set(['stream', 'stream_options', 'user', 'metadata', 'store', 'safety_identifier', 'prompt_cache_key', 'prompt_cache_retention']),
  'oaic.completions': new Set(['stream', 'stream_options', 'user']),
  'oaic.responses': new Set(['stream', 'stream_options', 'user', 'metadata', 'store', 'safety_identifier', 'prompt_cache_key', 'prompt_cache_retention']),
  'msgc.messages': new Set(['stream', 'metadata']),
  'genc.generate': new Set([]),
};

export interface CacheKeyInput {
  tenantId: string;
  operation: CachedOperation;
  /** The model as the client named it (genc names it in the path, not the body). */
  model: string;
  body: Readonly<Record<string, unknown>>;
}

/** The request's canonical form: its answer-changing fields, object keys sorted at every depth. */
export function canonicalForm(operation: CachedOperation, body: Readonly<Record<string, unknown>>): string {
  const skipped = NOT_ANSWER_CHANGING[operation];
  const kept = Object.keys(body)
    .filter((key) => !skipped.has(key) && body[key] !== undefined)
    .sort();
  return `{${kept.map((key) => `${JSON.stringify(key)}:${canonicalJson(body[key])}`).join(',')}}`;
}

/** The entry's name: one tenant's, one operation's, one model's, one canonical request's. */
export function cacheKeyOf({ tenantId, operation, model, body }: CacheKeyInput): string {
  return createHash('sha256').update(`v1\0${tenantId}\0${operation}\0${model}\0`).update(canonicalForm(operation, body)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

/** Whether the answer is drawn at random: a temperature above 0, or none (every family's default is above 0). */
export function samplesAnswer(operation: CachedOperation, body: Readonly<Record<string, unknown>>): boolean {
  const temperature = operation === 'genc.generate' ? (body.generationConfig as Record<string, unknown> | undefined)?.temperature : body.temperature;
  return temperature !== 0;
}
