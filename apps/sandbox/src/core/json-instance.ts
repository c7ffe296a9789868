// The smallest instance valid against a schema, as a model held to that schema would answer: JSON Schema
// (response formats, tool parameters) or Gemini's OpenAPI subset (capitalised type names, `nullable`).
// Required properties only, plus the first property when it can carry `text` (the prompt being answered).

type Schema = Record<string, unknown>;

const FORMATS: Record<string, string> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00',
  email: 'sandbox@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '192.0.2.1',
};

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function resolveRef(ref: string, root: Schema): Schema {
  const path = ref.replace(/^#\/?/, '').split('/').filter(Boolean);
  let node: unknown = root;
  for (const key of path) node = isSchema(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isSchema(node) ? node : {};
}

function typeOf(schema: Schema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => String(t).toLowerCase() !== 'null') : schema.type;
  if (typeof type === 'string') return type.toLowerCase();
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function stringFor(schema: Schema, text: string | undefined): string {
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format]!;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : null;
  for (const candidate of [text, 'sandbox']) {
    if (candidate === undefined) continue;
    const fitted = candidate.padEnd(min, 'x').slice(0, max);
    if (!pattern || pattern.test(fitted)) return fitted;
  }
  return 'x'.repeat(min);
}

function numberFor(schema: Schema, integer: boolean): number {
  const low = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 0;
  const high = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : Infinity;
  const value = Math.min(Math.max(0, low), high);
  return integer ? Math.ceil(value) : value;
}

function build(schema: Schema, root: Schema, text: string | undefined, depth: number): unknown {
  if (depth > 16) return null;
  if (typeof schema.$ref === 'string') return build(resolveRef(schema.$ref, root), root, text, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const pick = options.find((option) => isSchema(option) && typeOf(option) !== 'null') ?? options[0];
      return build(isSchema(pick) ? pick : {}, root, text, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged = Object.assign({}, ...schema.allOf.filter(isSchema).map((part) => (part.$ref ? resolveRef(String(part.$ref), root) : part)));
    return build({ ...merged, ...schema, allOf: undefined }, root, text, depth + 1);
  }
  switch (typeOf(schema)) {
    case 'object':
      return objectFor(schema, root, text, depth);
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const items = isSchema(schema.items) ? schema.items : {};
      return Array.from({ length: count }, () => build(items, root, text, depth + 1));
    }
    case 'string':
      return stringFor(schema, text);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return text ?? '';
  }
}

function objectFor(schema: Schema, root: Schema, text: string | undefined, depth: number): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const first = names[0];
  const out: Record<string, unknown> = {};
  for (const name of names) {
    if (name !== first && !required.has(name)) continue;
    const property = properties[name];
    out[name] = build(isSchema(property) ? property : {}, root, name === first ? text : undefined, depth + 1);
  }
  // A required property the schema does not describe still has to be there.
  for (const name of required) if (!(name in out)) out[name] = text ?? '';
  return out;
}

/** The instance for `schema`; the first property gets `text` where its schema allows it. */
export function minimalInstance(schema: unknown, text?: string): unknown {
  const root = isSchema(schema) ? schema : {};
  return build(root, root, text, 0);
}
