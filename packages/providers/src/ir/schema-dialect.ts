// Gemini's `parameters` / `responseSchema` speak an OpenAPI 3.0 subset (capitalised type names,
// `nullable`, no `$ref`); everything else speaks JSON Schema. Both directions are lossless for what the
// subset can hold; a JSON Schema keyword it cannot hold is refused, naming the keyword and where it sits.
import { GatewayError } from '@gateway/contracts';

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Keywords whose value is itself a schema, a map of schemas, or a list of schemas. */
const SUBSCHEMA = new Set(['items', 'not', 'additionalProperties']);
const SCHEMA_MAP = new Set(['properties', '$defs', 'definitions']);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/** OpenAPI subset → JSON Schema: lowercase type names, `nullable` as a null type. Values (enum, default, …) stay as given. */
export function jsonSchemaOfOpenApi(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type') out.type = typeof value === 'string' ? value.toLowerCase() : Array.isArray(value) ? value.map((t) => String(t).toLowerCase()) : value;
    else if (key === 'nullable') continue;
    else if (SCHEMA_MAP.has(key) && isSchema(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, jsonSchemaOfOpenApi(sub)]));
    else if (SCHEMA_LIST.has(key) && Array.isArray(value)) out[key] = value.map(jsonSchemaOfOpenApi);
    else if (SUBSCHEMA.has(key) && isSchema(value)) out[key] = jsonSchemaOfOpenApi(value);
    else out[key] = value;
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** What the OpenAPI subset holds besides structure: these pass unchanged. */
const OPENAPI_KEPT = new Set([
  'description',
  'title',
  'format',
  'enum',
  'example',
  'default',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minProperties',
  'maxProperties',
  'required',
  'propertyOrdering',
]);
/** Keywords with no meaning for the answer that the subset may drop without changing what is valid for it. */
const OPENAPI_DROPPED = new Set(['$schema', '$id', '$comment', 'additionalProperties', 'strict', 'examples', 'readOnly', 'writeOnly', 'deprecated']);

function refused(keyword: string, at: string, field: string): GatewayError {
  const where = at === '' ? 'the schema root' : at;
  return GatewayError.invalid(
    `'${field}': the JSON Schema keyword '${keyword}' at ${where} cannot be expressed in this model's schema dialect (an OpenAPI subset)`,
    field,
  );
}

function toOpenApi(schema: Schema, root: Schema, at: string, field: string, depth: number): Schema {
  if (depth > 32) throw refused('$ref', at, field);
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(schema.$ref, root);
    if (!target) throw refused('$ref', at, field);
    return toOpenApi(target, root, at, field, depth + 1);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    const here = at === '' ? key : `${at}.${key}`;
    if (key === 'type') {
      const types = Array.isArray(value) ? value.map(String) : [String(value)];
      const real = types.filter((type) => type !== 'null');
      if (real.length > 1) throw refused('type', here, field);
      if (real.length === 1) out.type = real[0]!.toUpperCase();
      if (real.length < types.length) out.nullable = true;
    } else if (key === 'const') out.enum = [value];
    else if (key === 'properties' && isSchema(value))
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, toOpenApi(isSchema(sub) ? sub : {}, root, `${here}.${name}`, field, depth + 1)]),
      );
    else if (key === 'items' && isSchema(value)) out.items = toOpenApi(value, root, here, field, depth + 1);
    else if (key === 'anyOf' && Array.isArray(value))
      out.anyOf = value.map((sub, i) => toOpenApi(isSchema(sub) ? sub : {}, root, `${here}[${i}]`, field, depth + 1));
    else if (key === '$defs' || key === 'definitions') continue;
    else if (OPENAPI_KEPT.has(key)) out[key] = value;
    else if (OPENAPI_DROPPED.has(key)) continue;
    else throw refused(key, here, field);
  }
  return out;
}

function resolveLocalRef(ref: string, root: Schema): Schema | null {
  if (!ref.startsWith('#')) return null;
  let node: unknown = root;
  for (const key of ref.slice(1).split('/').filter(Boolean)) node = isSchema(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isSchema(node) ? node : null;
}

/** JSON Schema → the OpenAPI subset; `field` is the client's field that held the schema, named in a refusal. */
export function openApiOfJsonSchema(schema: Record<string, unknown>, field: string): Record<string, unknown> {
  return toOpenApi(schema, schema, '', field, 0);
}
