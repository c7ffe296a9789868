/**
 * The gateway's own OpenAPI document (GET /docs/openapi.json) as a validator: a value is checked against the
 * response schema the document gives an operation for a status and media type, with Ajv in draft 2020-12
 * mode. The document is fetched and added once per test file; each schema is compiled on first use.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { http } from './gateway';

const DOCUMENT_ID = 'https://gateway-openapi.local/openapi.json';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** Where in the document an answer is described: the operation (path as the document writes it), status and media type. */
export interface DocumentedAnswer {
  method: HttpMethod;
  path: string;
  type?: 'application/json' | 'text/event-stream';
  status?: '200' | 'default';
}

export interface GatewaySchemas {
  /** The problems of `value` against the documented answer, one line each (empty when it conforms). */
  problems(answer: DocumentedAnswer, value: unknown): string[];
}

/** A JSON pointer segment: `/` and `~` escaped. */
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function explain(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)} (at ${e.schemaPath})`);
}

/** Fetches the document the edge at `base` serves and prepares it; call once per test file (in `beforeAll`). */
export async function loadGatewaySchemas(base: string): Promise<GatewaySchemas> {
  const response = await http('GET', `${base}/docs/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /docs/openapi.json answered ${response.status}`);
  const document = response.body as { paths: Record<string, Record<string, unknown>> };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  return {
    problems({ method, path, type = 'application/json', status = '200' }, value) {
      const operation = document.paths[path]?.[method.toLowerCase()];
      if (!operation) throw new Error(`the gateway's document has no operation ${method} ${path}`);
      const at = ['paths', path, method.toLowerCase(), 'responses', status, 'content', type, 'schema'].map(pointer).join('/');
      let validate = compiled.get(at);
      if (!validate) {
        validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${at}` });
        compiled.set(at, validate);
      }
      return validate(value) ? [] : explain(validate.errors);
    },
  };
}
