import { compileErrors, validate } from '@readme/openapi-parser';
import { z } from 'zod';
import { buildOpenApiDocument } from './openapi';
import { FAMILY_ERRORS, REPLY_SCHEMAS } from './reply-schemas';
import { BUILT_ROUTES, ROUTES } from './route-table';

type Operation = {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  requestBody?: unknown;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

type ParserInput = Parameters<typeof validate>[0];

const document = () => buildOpenApiDocument() as unknown as Document;
const operationOf = (doc: Document, method: string, path: string) => doc.paths[path]![method.toLowerCase()]!;

describe('the OpenAPI document', () => {
  it('passes @readme/openapi-parser validation as OpenAPI 3.1', async () => {
    const doc = document();
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as unknown as ParserInput);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.warnings).toEqual([]);
  });

  it('the validation can fail: a response without a description is refused', async () => {
    const doc = document();
    delete (operationOf(doc, 'POST', '/oaic/v1/chat/completions').responses['200'] as { description?: string }).description;
    expect((await validate(doc as unknown as ParserInput)).valid).toBe(false);
  });

  it('describes a 200 body and an error body for every built route', () => {
    const doc = document();
    const operations = BUILT_ROUTES.map((route) => ({ route, op: operationOf(doc, route.method, route.path) }));
    const documented = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(documented).toBe(BUILT_ROUTES.length);
    for (const { route, op } of operations) {
      const ok = op.responses['200']?.content ?? {};
      expect({ route: route.id, types: Object.keys(ok).length > 0 }).toEqual({ route: route.id, types: true });
      expect(op.responses.default?.content?.['application/json']?.schema).toEqual({ $ref: `#/components/schemas/${FAMILY_ERRORS[route.family]}` });
    }
  });

  it('names its answers in the route table, each a component generated from its zod schema', () => {
    const doc = document();
    expect(Object.keys(doc.components.schemas).sort()).toEqual(Object.keys(REPLY_SCHEMAS).sort());
    for (const route of ROUTES) {
      const { json, events, bytes } = route.reply ?? {};
      expect({ route: route.id, answers: Boolean(json || events || bytes?.length) }).toEqual({ route: route.id, answers: true });
      const content = operationOf(doc, route.method, route.path).responses['200']!.content!;
      if (json) expect(content['application/json']).toEqual({ schema: { $ref: `#/components/schemas/${json}` } });
      if (events) expect(JSON.stringify(content['text/event-stream'])).toContain(`#/components/schemas/${events}`);
      for (const type of bytes ?? []) expect(content[type]).toEqual({ schema: { type: 'string', format: 'binary' } });
    }
    const expected = z.toJSONSchema(REPLY_SCHEMAS.DscTask, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>;
    delete expected.$schema;
    expect(doc.components.schemas.DscTask).toEqual(expected);
  });

  it('streams: the event schema and the family error for each streaming route, and SSE only where the route streams', () => {
    const content = (method: string, path: string) => operationOf(document(), method, path).responses['200']!.content!;
    expect(content('POST', '/oaic/v1/chat/completions')['text/event-stream']).toEqual({
      schema: { anyOf: [{ $ref: '#/components/schemas/ChatCompletionChunk' }, { $ref: '#/components/schemas/OaicError' }] },
    });
    expect(Object.keys(content('POST', '/genc/v1beta/models/{model}:streamGenerateContent'))).toEqual(['text/event-stream']);
    expect(Object.keys(content('POST', '/msgc/v1/messages')).sort()).toEqual(['application/json', 'text/event-stream']);
    expect(Object.keys(content('POST', '/oaic/v1/embeddings'))).toEqual(['application/json']);
    expect(Object.keys(content('POST', '/oaic/v1/audio/speech'))).toEqual(['audio/*']);
  });

  it('keeps request bodies and parameters as they were: input schemas, path and query parameters', () => {
    const doc = document();
    const chat = operationOf(doc, 'POST', '/oaic/v1/chat/completions') as Operation & {
      requestBody: { content: Record<string, { schema: { required?: string[] } }> };
    };
    expect(chat.requestBody.content['application/json']!.schema.required).toEqual(expect.arrayContaining(['model', 'messages']));
    const get = operationOf(doc, 'GET', '/dsc/v1/tasks/{task_id}') as Operation & { parameters: { name: string; in: string }[] };
    expect(get.parameters).toEqual([expect.objectContaining({ name: 'task_id', in: 'path' })]);
  });
});
