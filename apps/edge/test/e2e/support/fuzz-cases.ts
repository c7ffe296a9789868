/**
 * fast-check arbitraries for hostile requests to one built route: bodies that are arbitrary or a valid
 * seed mutated (wrong types, missing fields, huge strings, deep nesting, NUL and lone surrogates,
 * `__proto__` keys), auth headers missing, duplicated or garbage, content-type variants, garbage
 * `x-request-id`, mutated queries and path parameters, and now and then the wrong method.
 */
import { randomBytes } from 'node:crypto';
import type { RouteDef } from '@gateway/contracts';
import fc from 'fast-check';
import type { RouteSeed } from './fuzz-seeds';
import { wavTone } from './oaic-fixtures';

export interface FuzzKeys {
  /** Used when the contract refuses the body: its tenant's balance must never move. */
  refused: string;
  /** Used when the body is valid: such a request may be served and billed. */
  served: string;
  revoked: string;
}

export interface FuzzCase {
  method: string;
  path: string;
  /** Flat name/value pairs, so a header can appear twice. */
  headers: string[];
  body: string | Buffer | undefined;
  /** The route's own contract schema refuses the body (or it is not JSON): must never be a 2xx. */
  refusedByContract: boolean;
}

type Json = unknown;

/** A value spliced into the JSON text as is: deep nesting that JSON.stringify itself could not write. */
class RawJson {
  constructor(readonly text: string) {}
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
/** Strings of any UTF-16 units: NUL, control characters, lone surrogates, BOMs. */
export const wildString = fc.oneof(
  fc.string({ unit: anyUnit, maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '\ud83d',
    '\u202e\u2066',
    '\ufeff',
    '\r\n\r\n',
    '../../etc/passwd',
    '%00',
    '${x}',
    "'; --",
    'null',
  ),
);
const hugeString = fc.constantFrom(70_000, 600_000).map((n) => 'y'.repeat(n));
/** Over one bus message (1 MB) and up to 4 MB: what no route but the chat families may take. */
const oversizedString = fc.constantFrom(1_100_000, 2_600_000, 4_000_000).map((n) => 'o'.repeat(n));
const deepValue = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) => new RawJson(arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

function protoObject(inner: Json): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  Object.defineProperty(object, '__proto__', { value: inner, enumerable: true, writable: true, configurable: true });
  return object;
}

const leafValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 0.5, 1e308, -1e308, 2 ** 53 + 1, 2 ** 31, [], {}, '1', 'true'),
  fc.integer(),
  fc.double(),
  wildString,
);
const anyValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: leafValue },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: oversizedString },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: leafValue.map(protoObject) },
  { weight: 1, arbitrary: fc.array(leafValue, { maxLength: 5 }) },
);

type Op = { kind: 'delete' } | { kind: 'replace'; value: Json } | { kind: 'add'; key: string; value: Json } | { kind: 'wrap' };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant<Op>({ kind: 'delete' }),
  anyValue.map((value): Op => ({ kind: 'replace', value })),
  fc
    .tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'model', 'stream', ''), wildString), anyValue)
    .map(([key, value]): Op => ({ kind: 'add', key, value })),
  fc.constant<Op>({ kind: 'wrap' }),
);

/** Every container and leaf of `value`, as a path from the root. */
function pathsOf(value: Json, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...prefix, i], out));
  else if (value && typeof value === 'object' && !(value instanceof RawJson))
    for (const key of Object.keys(value)) pathsOf((value as Record<string, Json>)[key], [...prefix, key], out);
  return out;
}

function setOwn(target: Record<string | number, unknown> | unknown[], key: string | number, value: unknown): void {
  // An array's own `length` cannot be redefined: such an `add` leaves the array as it was.
  if (Array.isArray(target) && key === 'length') return;
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A fresh copy of a drawn value: an arbitrary may hand out the same object more than once (a constant `{}`),
 * and a later operation writing into it would otherwise change earlier cases or nest it in itself.
 */
function copyOf(value: Json): Json {
  // Index by index: an earlier operation may have given the array an own `constructor` key, which `map` would call.
  if (Array.isArray(value)) return Array.from({ length: value.length }, (_, i) => copyOf(value[i] as Json));
  if (!value || typeof value !== 'object' || value instanceof RawJson) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(copy, key, copyOf((value as Record<string, Json>)[key]));
  return copy as Json;
}

function mutate(seed: Json, ops: Array<[number, Op]>): Json {
  let root = structuredClone(seed) as Json;
  for (const [pick, operation] of ops) {
    const paths = pathsOf(root);
    const path = paths[pick % paths.length]!;
    const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string | number, Json>)[key], root) as
      Record<string | number, unknown> | unknown[] | undefined;
    const last = path[path.length - 1];
    const current = path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key], root);
    const replace = (drawn: Json) => {
      const value = copyOf(drawn);
      if (parent === undefined || last === undefined) root = value;
      else setOwn(parent, last, value);
    };
    switch (operation.kind) {
      case 'delete':
        if (parent === undefined || last === undefined) root = undefined;
        else if (Array.isArray(parent)) removeAt(parent, Number(last));
        else delete parent[last];
        break;
      case 'replace':
        replace(operation.value);
        break;
      case 'add':
        if (current && typeof current === 'object' && !(current instanceof RawJson))
          setOwn(current as Record<string, unknown>, operation.key, copyOf(operation.value));
        else replace({ [operation.key]: operation.value });
        break;
      case 'wrap':
        replace([current]);
        break;
    }
  }
  return root;
}

/** JSON text of a value that may hold RawJson parts and own `__proto__` keys. */
export function jsonText(value: Json): string | undefined {
  const raws: string[] = [];
  const marker = `raw-${randomBytes(6).toString('hex')}-`;
  const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof RawJson ? `${marker}${raws.push(v.text) - 1}` : v));
  return text?.replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_m, i: string) => raws[Number(i)]!);
}

export interface BodyPlan {
  text: string | undefined;
  /** Whether the text is JSON at all (raw garbage is refused by the parser). */
  json: boolean;
}

export function bodyArbitrary(seed: RouteSeed): fc.Arbitrary<BodyPlan> {
  const fromValue = (value: Json): BodyPlan => ({ text: jsonText(value), json: true });
  const seeds = seed.bodies.length > 0 ? fc.constantFrom(...seed.bodies) : fc.constant<Json>({});
  const garbage = fc.oneof(
    fc.string({ unit: anyUnit, maxLength: 60 }),
    seeds.chain((s) => fc.nat().map((cut) => JSON.stringify(s).slice(0, 1 + (cut % Math.max(1, JSON.stringify(s).length - 1))))),
    seeds.map((s) => `\ufeff${JSON.stringify(s)}`),
    seeds.map((s) => `${JSON.stringify(s)}${JSON.stringify(s)}`),
    fc.constantFrom(
      '',
      ' ',
      'null',
      '[]',
      '"x"',
      '{"a":1,}',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
      'NaN',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
    ),
  );
  return fc.oneof(
    { weight: 2, arbitrary: seeds.map(fromValue) },
    { weight: 8, arbitrary: fc.tuple(seeds, fc.array(fc.tuple(fc.nat(), op), { minLength: 1, maxLength: 3 })).map(([s, ops]) => fromValue(mutate(s, ops))) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(fromValue) },
    { weight: 2, arbitrary: garbage.map((text): BodyPlan => ({ text, json: isJson(text) })) },
    { weight: 1, arbitrary: fc.constant<BodyPlan>({ text: undefined, json: false }) },
  );
}

/** The JSON a body parser reads from `text`: a leading byte order mark is allowed, as Fastify's parser strips it. */
export function parseJsonBody(text: string): unknown {
  return JSON.parse(text.replace(/^\ufeff/, ''));
}

function isJson(text: string): boolean {
  try {
    parseJsonBody(text);
    return true;
  } catch {
    return false;
  }
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zzz',
  '',
  'application/json, text/plain',
  ';;;',
];

/** Header values Node and undici can send: tab, printable ASCII and Latin-1. */
const headerText = fc.string({
  unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(9)).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);

function authArbitrary(route: RouteDef, keys: FuzzKeys): fc.Arbitrary<(key: string) => string[]> {
  const bearer = (value: string) => ['authorization', value];
  const garbageKey = fc.oneof(headerText, fc.constantFrom('sk-', 'sk-' + 'a'.repeat(64), keys.revoked, `${keys.served}x`, keys.served.toUpperCase()));
  if (route.auth === 'msgc') {
    const version = fc.oneof(
      { weight: 8, arbitrary: fc.constant(['msgc-version', '2023-06-01']) },
      { weight: 1, arbitrary: fc.constant([]) },
      { weight: 1, arbitrary: headerText.map((v) => ['msgc-version', v]) },
      { weight: 1, arbitrary: fc.constant(['msgc-version', '2023-06-01', 'msgc-version', '2024-01-01']) },
    );
    return fc
      .tuple(
        fc.oneof(
          { weight: 10, arbitrary: fc.constant((key: string) => ['x-api-key', key]) },
          { weight: 1, arbitrary: fc.constant(() => []) },
          { weight: 1, arbitrary: garbageKey.map((bad) => () => ['x-api-key', bad]) },
          { weight: 1, arbitrary: garbageKey.map((bad) => (key: string) => ['x-api-key', key, 'x-api-key', bad]) },
          { weight: 1, arbitrary: fc.constant((key: string) => ['x-api-key', key, 'x-api-key', key]) },
          { weight: 1, arbitrary: fc.constant((key: string) => bearer(`Bearer ${key}`)) },
        ),
        version,
      )
      .map(([auth, v]) => (key: string) => [...auth(key), ...v]);
  }
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant((key: string) => bearer(`Bearer ${key}`)) },
    { weight: 1, arbitrary: fc.constant(() => []) },
    { weight: 1, arbitrary: garbageKey.map((bad) => () => bearer(`Bearer ${bad}`)) },
    { weight: 1, arbitrary: headerText.map((bad) => () => bearer(bad)) },
    { weight: 1, arbitrary: garbageKey.map((bad) => (key: string) => [...bearer(`Bearer ${key}`), ...bearer(`Bearer ${bad}`)]) },
    { weight: 1, arbitrary: fc.constant((key: string) => [...bearer(`Bearer ${key}`), ...bearer(`Bearer ${key}`)]) },
    { weight: 1, arbitrary: fc.constantFrom('bearer', 'Basic', 'Bearer  ', 'Token').map((scheme) => (key: string) => bearer(`${scheme} ${key}`)) },
    { weight: 1, arbitrary: fc.constant((key: string) => ['x-api-key', key]) },
  );
}

const requestIdHeader = fc.oneof(
  { weight: 3, arbitrary: fc.constant<string[]>([]) },
  { weight: 2, arbitrary: headerText.map((v) => ['x-request-id', v]) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('../speech-probe', '..%2f..%2fx', 'a'.repeat(129), 'a'.repeat(500), ' ', 'claim:x', '*').map((v) => ['x-request-id', v]),
  },
  { weight: 1, arbitrary: fc.tuple(headerText, headerText).map(([a, b]) => ['x-request-id', a, 'x-request-id', b]) },
);

const extraHeaders = fc.oneof(
  { weight: 6, arbitrary: fc.constant<string[]>([]) },
  { weight: 3, arbitrary: fc.array(fc.tuple(headerName, headerText), { maxLength: 4 }).map((pairs) => pairs.flat()) },
  { weight: 1, arbitrary: fc.constantFrom(20_000, 70_000).map((n) => ['x-padding', 'p'.repeat(n)]) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ['transfer-encoding', 'chunked'],
      ['content-encoding', 'gzip'],
      ['expect', '100-continue'],
      ['host', 'attacker.example'],
      ['accept', 'text/event-stream'],
    ),
  },
);

/** Query strings: the seed's, mutated, or arbitrary bytes in a valid request target. */
function queryArbitrary(seed: RouteSeed): fc.Arbitrary<string> {
  const seedPairs = Object.entries(seed.query);
  const encoded = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const printable = fc.string({
    unit: fc
      .integer({ min: 0x21, max: 0x7e })
      .filter((c) => c !== 0x23)
      .map((c) => String.fromCharCode(c)),
    maxLength: 40,
  });
  const safeText = fc.string({ unit: 'grapheme-ascii', maxLength: 20 });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(encoded(seedPairs)) },
    {
      weight: 3,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(fc.constantFrom(...seedPairs.map(([k]) => k), 'limit', 'after_id', 'alt', 'scope', '__proto__', 'key'), safeText), safeText), {
          maxLength: 5,
        })
        .map((pairs) => encoded([...seedPairs, ...pairs])),
    },
    { weight: 2, arbitrary: printable },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '%00',
        '%ff%fe',
        '&&&',
        '=',
        'a[b]=c',
        'limit=1&limit=2',
        'limit=-1',
        'limit=1e3',
        'limit=99999999999999999999',
        'alt=SSE',
        'alt=sse&alt=json',
        'scope=',
      ),
    },
  );
}

export function paramArbitrary(values: string[]): fc.Arbitrary<string> {
  const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...values) },
    { weight: 2, arbitrary: token },
    { weight: 1, arbitrary: fc.string({ unit: anyUnit, maxLength: 12 }).map(percentEncode) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '..',
        '%2e%2e',
        '%2F',
        '%00',
        'a%20b',
        '%ff',
        'x'.repeat(101),
        'x'.repeat(300),
        'sandbox-gemini%00',
        'sandbox-gpt-private',
        'sandbox-gpt@fail=500',
        'models%2Fsandbox-gemini',
      ),
    },
  );
}

/** Percent-encodes every UTF-16 unit's UTF-8 bytes, lone surrogates included (as WTF-8), so any string fits a path. */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const bytes =
      code < 0x80 ? [code] : code < 0x800 ? [0xc0 | (code >> 6), 0x80 | (code & 63)] : [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
    out += bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
  return out || '%20';
}

/** How a form is laid out around its fields and file: the shapes that once left a form unanswered. */
interface FormShape {
  /** Extra text fields before the file part, and after it. */
  before: number;
  after: number;
  /** Extra file parts after the first. */
  files: number;
  /** Bytes of an extra header line on the file part. */
  headerBytes: number;
}

const formShape: fc.Arbitrary<FormShape> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<FormShape>({ before: 0, after: 0, files: 0, headerBytes: 0 }) },
  {
    weight: 3,
    arbitrary: fc.record({
      before: fc.constantFrom(0, 5, 21, 40, 200),
      after: fc.constantFrom(0, 5, 40),
      files: fc.constantFrom(0, 1, 80),
      headerBytes: fc.constantFrom(0, 20_000, 100_000),
    }),
  },
);

function multipartArbitrary(seed: RouteSeed): fc.Arbitrary<{ body: Buffer; contentType: string }> {
  const boundary = `fuzz${randomBytes(6).toString('hex')}`;
  const fieldValue = fc.oneof(
    { weight: 3, arbitrary: fc.constant<string | null>(null) },
    { weight: 2, arbitrary: wildString },
    { weight: 1, arbitrary: hugeString },
  );
  const fileBytes = fc.oneof(
    fc.constant(wavTone(100)),
    fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
    fc.constant(Buffer.alloc(0)),
    fc.constant<Buffer | null>(null),
    fc.constantFrom(1_100_000, 4_000_000).map((n) => Buffer.alloc(n, 0x61)),
  );
  const entries = Object.entries(seed.fields ?? {});
  return fc
    .tuple(
      fc.array(fieldValue, { minLength: entries.length, maxLength: entries.length }),
      fc.array(fc.tuple(headerName, wildString), { maxLength: 3 }),
      fileBytes,
      fc.constantFrom('a.wav', '../../a.wav', 'a\u0000.wav', ''),
      fc.boolean(),
      formShape,
    )
    .map(([overrides, extra, file, filename, closed, shape]) => {
      const parts: Buffer[] = [];
      const field = (name: string, value: string) =>
        parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
      const filePart = (name: string, bytes: Buffer, header: string) =>
        parts.push(
          Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${filename}"\r\ncontent-type: audio/wav\r\n${header}\r\n`),
          bytes,
          Buffer.from('\r\n'),
        );
      for (let i = 0; i < shape.before; i++) field(`before${i}`, 'v');
      entries.forEach(([name, value], i) => {
        const override = overrides[i];
        if (override !== '') field(name, override ?? value);
      });
      for (const [name, value] of extra) field(name, value);
      if (file) filePart('file', file, shape.headerBytes > 0 ? `x-padding: ${'h'.repeat(shape.headerBytes)}\r\n` : '');
      for (let i = 0; i < shape.files; i++) filePart(`extra${i}`, Buffer.from('z'), '');
      for (let i = 0; i < shape.after; i++) field(`after${i}`, 'v');
      if (closed) parts.push(Buffer.from(`--${boundary}--\r\n`));
      return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
    });
}

function fillPath(route: RouteDef, params: Record<string, string>): string {
  return route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => params[name] ?? 'x');
}

/** Cuts long strings in a printed counterexample. */
function shortString(value: unknown): string {
  const cut = (text: string) => (text.length > 120 ? `${text.slice(0, 60)}…(${text.length} chars)` : text);
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    // JSON.stringify hands the replacer a Buffer's toJSON form; show its bytes as text instead.
    const raw = this[key];
    if (Buffer.isBuffer(raw)) return cut(raw.toString('latin1'));
    return typeof v === 'string' ? cut(v) : v;
  });
}

export function fuzzCaseArbitrary(route: RouteDef, seed: RouteSeed, keys: FuzzKeys): fc.Arbitrary<FuzzCase> {
  const paramNames = Object.keys(seed.params);
  const params = fc
    .tuple(...paramNames.map((name) => paramArbitrary(seed.params[name]!)))
    .map((values) => Object.fromEntries(paramNames.map((n, i) => [n, values[i]!])));
  const method = fc.oneof({ weight: 19, arbitrary: fc.constant<string>(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });
  // A route without a body schema (GET, DELETE, a bodiless POST such as a batch cancel) reads no body.
  const needsBody = route.method !== 'GET' && route.body !== undefined;
  const payload = route.multipart
    ? fc.oneof(
        {
          weight: 4,
          arbitrary: multipartArbitrary(seed).map((m) => ({
            body: m.body as string | Buffer | undefined,
            contentType: m.contentType as string | undefined,
            refused: false,
          })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(bodyArbitrary(seed), fc.constantFrom(...CONTENT_TYPES))
            .map(([b, contentType]) => ({ body: b.text, contentType, refused: false })),
        },
      )
    : needsBody
      ? fc
          .tuple(
            bodyArbitrary(seed),
            fc.oneof(
              { weight: 6, arbitrary: fc.constant<string | undefined>('application/json') },
              { weight: 3, arbitrary: fc.constantFrom<string | undefined>(...CONTENT_TYPES, undefined) },
              { weight: 1, arbitrary: headerText.map<string | undefined>((t) => t) },
            ),
          )
          .map(([b, contentType]) => ({
            body: b.text,
            contentType,
            refused: b.text === undefined || !b.json || !route.body!.safeParse(parseJsonBody(b.text)).success,
          }))
      : fc.constant({ body: undefined as string | Buffer | undefined, contentType: undefined as string | undefined, refused: false });
  return fc
    .tuple(method, params, queryArbitrary(seed), payload, authArbitrary(route, keys), requestIdHeader, extraHeaders)
    .map(([m, p, query, load, auth, requestId, extra]) => {
      const refusedByContract = needsBody && !route.multipart && load.refused;
      const headers = [...auth(refusedByContract ? keys.refused : keys.served), ...requestId, ...extra];
      if (load.contentType !== undefined && load.body !== undefined) headers.push('content-type', load.contentType);
      const withBody = m !== 'GET' && m !== 'OPTIONS';
      const fuzzCase: FuzzCase = {
        method: m,
        path: `${fillPath(route, p)}${query ? `?${query}` : ''}`,
        headers,
        body: withBody ? load.body : undefined,
        refusedByContract: refusedByContract && m === route.method,
      };
      return Object.assign(fuzzCase, { [fc.toStringMethod]: () => shortString(fuzzCase) });
    });
}

/** Array.prototype.splice without it: a mutation may have given the array an own `constructor`, which splice consults. */
function removeAt(array: unknown[], index: number): void {
  if (!(index >= 0 && index < array.length)) return;
  for (let i = index; i < array.length - 1; i++) array[i] = array[i + 1];
  array.length -= 1;
}
