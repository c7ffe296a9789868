import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { cacheKeyOf, canonicalForm, samplesAnswer, type CachedOperation } from './cache-key';

const OPERATIONS: readonly CachedOperation[] = ['oaic.chat', 'oaic.completions', 'oaic.responses', 'msgc.messages', 'genc.generate'];
const IGNORED: Record<CachedOperation, readonly string[]> = {
  'oaic.chat': ['stream', 'stream_options', 'user', 'metadata', 'store', 'safety_identifier', 'prompt_cache_key', 'prompt_cache_retention'],
  'oaic.completions': ['stream', 'stream_options', 'user'],
  'oaic.responses': ['stream', 'stream_options', 'user', 'metadata', 'store', 'safety_identifier', 'prompt_cache_key', 'prompt_cache_retention'],
  'msgc.messages': ['stream', 'metadata'],
  'genc.generate': [],
};
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** As a body arrives: parsed from JSON text (no -0, no undefined). */
const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, Json>;

const field = fc.constantFrom(
  'model',
  'messages',
  'temperature',
  'top_p',
  'max_tokens',
  'tools',
  'n',
  'seed',
  'system',
  'contents',
  'input',
  'stop',
  'x',
  ...new Set(Object.values(IGNORED).flat()),
);
const body = fc.dictionary(field, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }).map(wire);
const operation = fc.constantFrom(...OPERATIONS);

/** What the key must see: the body without the operation's ignored top-level fields. */
const answerChanging = (op: CachedOperation, b: Record<string, Json>) => Object.fromEntries(Object.entries(b).filter(([key]) => !IGNORED[op].includes(key)));

/** A near miss: one value somewhere in the body replaced, removed or added. */
function mutate(value: Json, path: readonly number[], replacement: Json): Json {
  if (value === null || typeof value !== 'object') return replacement;
  const entries: [string, Json][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  if (entries.length === 0 || path.length === 0) return Array.isArray(value) ? [...value, replacement] : { ...value, [`k${path.length}`]: replacement };
  const [at, ...rest] = path;
  const index = at! % (entries.length + 1);
  if (index === entries.length) return Array.isArray(value) ? value.slice(1) : Object.fromEntries(entries.slice(1));
  const [key, child] = entries[index]!;
  const next = mutate(child, rest, replacement);
  return Array.isArray(value) ? value.map((v, i) => (i === index ? next : v)) : { ...value, [key]: next };
}

function shuffleKeys(value: Json, seed: number): Json {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, seed + 1));
  const entries = Object.entries(value).map(([k, v]) => [k, shuffleKeys(v, seed + 1)] as const);
  entries.sort((a, b) => ((a[0].length * 31 + seed) % 7) - ((b[0].length * 31 + seed) % 7) || (seed % 2 ? 1 : -1));
  return Object.fromEntries(entries);
}

const key = (op: CachedOperation, b: Record<string, unknown>, tenantId = 't1', model = 'm') => cacheKeyOf({ tenantId, operation: op, model, body: b });

describe('the response cache key', () => {
  it('is shared by two requests exactly when their answer-changing fields are equal (near misses and strangers)', () => {
    fc.assert(
      fc.property(
        operation,
        body,
        body,
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.jsonValue({ maxDepth: 1 }),
        fc.boolean(),
        (op, a, stranger, path, replacement, near) => {
          const b = near ? wire(mutate(a, path, wire([replacement])[0]!)) : stranger;
          if (b === null || typeof b !== 'object' || Array.isArray(b)) return;
          expect(key(op, a) === key(op, b)).toBe(isDeepStrictEqual(answerChanging(op, a), answerChanging(op, b)));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('ignores the order of keys at every depth', () => {
    fc.assert(
      fc.property(operation, body, fc.nat(), (op, b, seed) => {
        expect(key(op, shuffleKeys(b, seed) as Record<string, Json>)).toBe(key(op, b));
      }),
      { numRuns: RUNS },
    );
  });

  it("ignores streaming, the caller's labels and prompt-cache hints, and only those", () => {
    fc.assert(
      fc.property(operation, body, fc.jsonValue({ maxDepth: 2 }), (op, b, value) => {
        for (const ignored of IGNORED[op]) expect(key(op, wire({ ...b, [ignored]: value }))).toBe(key(op, answerChanging(op, b)));
        expect(key(op, wire({ ...b, temperature: 0.5 }))).not.toBe(key(op, wire({ ...b, temperature: 0.25 })));
      }),
      { numRuns: RUNS / 4 },
    );
  });

  it('never names one entry for two tenants, operations or models', () => {
    fc.assert(
      fc.property(operation, operation, body, fc.string(), fc.string(), (op, other, b, t1, t2) => {
        fc.pre(t1 !== t2);
        expect(key(op, b, t1)).not.toBe(key(op, b, t2));
        expect(key(op, b, t1, 'a')).not.toBe(key(op, b, t1, 'b'));
        if (op !== other) expect(key(op, b)).not.toBe(key(other, b));
      }),
      { numRuns: RUNS / 4 },
    );
  });

  it('keeps null apart from absent', () => {
    expect(canonicalForm('oaic.chat', { temperature: null })).not.toBe(canonicalForm('oaic.chat', {}));
    expect(key('oaic.chat', { messages: [{ role: 'user', content: 'hi' }], stop: null })).not.toBe(
      key('oaic.chat', { messages: [{ role: 'user', content: 'hi' }] }),
    );
  });
});

describe('sampled answers', () => {
  it('are those with a temperature above 0 or none at all', () => {
    expect(samplesAnswer('oaic.chat', { temperature: 0 })).toBe(false);
    expect(samplesAnswer('oaic.chat', { temperature: 0.7 })).toBe(true);
    expect(samplesAnswer('msgc.messages', {})).toBe(true);
    expect(samplesAnswer('genc.generate', { generationConfig: { temperature: 0 } })).toBe(false);
    expect(samplesAnswer('genc.generate', { temperature: 0 })).toBe(true);
  });
});
