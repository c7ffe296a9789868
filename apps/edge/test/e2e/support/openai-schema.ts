/**
 * OpenAI's own OpenAPI description (../shared/vendor-specs/openai-openapi.json) as a validator: whatever the
 * oaic family answers is checked against the component schema OpenAI documents for it. The document is
 * large, so it is read and compiled once per test file, and each named schema is compiled on first use.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');
export const OPENAI_OPENAPI_PATH = path.resolve(REPO_ROOT, '../shared/vendor-specs/openai-openapi.json');
const DOCUMENT_ID = 'https://openai-openapi.local/openapi.json';

export type JsonNode = null | boolean | number | string | JsonNode[] | { [key: string]: JsonNode };

/**
 * The document is OpenAPI 3.1 but still marks some fields with 3.0's `nullable: true`, often beside a `$ref`
 * or an `allOf`, where Ajv's own `nullable` cannot apply: rewrite it as JSON Schema says it (a null branch).
 */
function withNullBranches(node: JsonNode): JsonNode {
  if (Array.isArray(node)) return node.map(withNullBranches);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: JsonNode } = {};
  for (const [key, value] of Object.entries(node)) if (key !== 'nullable') out[key] = withNullBranches(value);
  if (node['nullable'] !== true) return out;
  if (typeof out['type'] === 'string') {
    out['type'] = [out['type'], 'null'];
    if (Array.isArray(out['enum'])) out['enum'] = [...out['enum'], null];
    return out;
  }
  const { description, title, default: fallback, ...rest } = out;
  const wrapped: { [key: string]: JsonNode } = { anyOf: [rest, { type: 'null' }] };
  if (description !== undefined) wrapped['description'] = description;
  if (title !== undefined) wrapped['title'] = title;
  if (fallback !== undefined) wrapped['default'] = fallback;
  return wrapped;
}

/** The branch of an `anyOf` of `$ref`s whose `type` property is the value's own `type`, if there is one. */
function branchOfType(schemas: Record<string, JsonNode>, union: JsonNode | undefined, value: unknown): string | undefined {
  if (!union || typeof union !== 'object' || Array.isArray(union) || !Array.isArray(union['anyOf'])) return undefined;
  const type = value && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
  if (typeof type !== 'string') return undefined;
  for (const option of union['anyOf']) {
    const ref = option && typeof option === 'object' && !Array.isArray(option) ? option['$ref'] : undefined;
    const name = typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
    const schema = name ? schemas[name] : undefined;
    const properties = schema && typeof schema === 'object' && !Array.isArray(schema) ? schema['properties'] : undefined;
    const typeSchema = properties && typeof properties === 'object' && !Array.isArray(properties) ? properties['type'] : undefined;
    const allowed = typeSchema && typeof typeSchema === 'object' && !Array.isArray(typeSchema) ? typeSchema['enum'] : undefined;
    if (name && Array.isArray(allowed) && allowed.includes(type)) return name;
  }
  return undefined;
}

export interface OpenAiSchemas {
  /** The problems of `value` against `#/components/schemas/<name>`, one line each (empty when it conforms). */
  problems(name: string, value: unknown): string[];
  /** A copy of a component schema (as JSON Schema, `nullable` rewritten), to derive a schema the document lacks. */
  component(name: string): JsonNode;
  /** The problems of `value` against a derived schema whose `$ref`s point into the document's components. */
  problemsOf(schema: JsonNode, value: unknown): string[];
}

/** Local `$ref`s made absolute, so a schema compiled on its own still resolves into the document. */
function anchored(node: JsonNode): JsonNode {
  if (Array.isArray(node)) return node.map(anchored);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: JsonNode } = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : anchored(value);
  return out;
}

function explain(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)} (at ${e.schemaPath})`);
}

/** Reads and compiles the document; call once per test file (in `beforeAll`). */
export function loadOpenAiSchemas(file = OPENAI_OPENAPI_PATH): OpenAiSchemas {
  const document = JSON.parse(readFileSync(file, 'utf8')) as { components: { schemas: Record<string, JsonNode> } };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // OpenAI's own format for its epoch-seconds timestamps.
  ajv.addFormat('unixtime', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 });
  // Only the schemas travel: the paths and other components name things no response body refers to.
  const schemas = withNullBranches(document.components.schemas) as Record<string, JsonNode>;
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas } });
  const compiled = new Map<string, ValidateFunction>();
  const problems = (name: string, value: unknown): string[] => {
    if (!(name in document.components.schemas)) throw new Error(`the OpenAI document has no component schema named ${name}`);
    let validate = compiled.get(name);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/components/schemas/${name}` });
      compiled.set(name, validate);
    }
    if (validate(value)) return [];
    const branch = branchOfType(document.components.schemas, document.components.schemas[name], value);
    // A union (the stream events) reports every branch it tried; the one named by the value's own type says what is wrong.
    return branch ? [`as ${branch}:`, ...problems(branch, value)] : explain(validate.errors);
  };
  const component = (name: string): JsonNode => {
    if (!(name in schemas)) throw new Error(`the OpenAI document has no component schema named ${name}`);
    return structuredClone(schemas[name]!);
  };
  const problemsOf = (schema: JsonNode, value: unknown): string[] => {
    const validate = ajv.compile(anchored(schema) as object);
    return validate(value) ? [] : explain(validate.errors);
  };
  return { problems, component, problemsOf };
}
