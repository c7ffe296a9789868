import { z } from 'zod';
import { FAMILY_ERRORS, REPLY_SCHEMAS, type ReplySchemaName } from './reply-schemas';
import { ROUTES } from './route-table';
import type { RouteDef, RouteReply } from './route.types';

type JsonObject = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/** A schema as JSON Schema: the form a client writes (`input`, the default) or the one it reads (`output`). */
export function toSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonObject {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
}

/** Every reply schema as a component, generated together so that one reply schema inside another is a `$ref`. */
function replyComponents(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(REPLY_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any', uri: (id) => `${COMPONENTS}${id}` });
  const components: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // A component is addressed by its place in the document; `$id`/`$schema` on each would make it a document of its own.
    const { $id: _id, $schema: _schema, ...rest } = schema as JsonObject;
    components[id] = rest;
  }
  return components;
}

const ref = (name: ReplySchemaName) => ({ $ref: `${COMPONENTS}${name}` });

/** The 200 response: JSON, an SSE stream whose events are the named schema (or the family's error), and bytes. */
function success(route: RouteDef, reply: RouteReply): JsonObject {
  const content: JsonObject = {};
  if (reply.json) content['application/json'] = { schema: ref(reply.json) };
  if (reply.events) content['text/event-stream'] = { schema: { anyOf: [ref(reply.events), ref(FAMILY_ERRORS[route.family])] } };
  for (const mediaType of reply.bytes ?? []) content[mediaType] = { schema: { type: 'string', format: 'binary' } };
  const notes: string[] = [];
  if (reply.json && reply.events) notes.push('With `stream: true` in the body, a `text/event-stream` whose every event carries one of the objects shown.');
  else if (reply.events) notes.push('A `text/event-stream` whose every event carries one of the objects shown.');
  if (reply.events && route.family === 'oaic') notes.push('The stream ends with `data: [DONE]`; a failure after it began arrives as one error event.');
  return { description: ['OK.', ...notes].join(' '), content };
}

/** `/genc/v1beta/models/{model}:generateContent` is already OpenAPI-style; parameters are the braces. */
function pathParameters(path: string): JsonObject[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
}

function queryParameters(route: RouteDef): JsonObject[] {
  if (!route.query) return [];
  const schema = toSchema(route.query) as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: prop,
  }));
}

function operation(route: RouteDef): JsonObject {
  if (!route.reply) throw new Error(`Route ${route.method} ${route.path} (${route.id}) names no reply`);
  const op: JsonObject = {
    operationId: `${route.id}${route.path.startsWith('/v1/') && route.family === 'oaic' ? '.v1' : ''}`,
    summary: route.summary,
    tags: [route.family],
    security: [route.auth === 'msgc' ? { msgcKey: [], msgcVersion: [] } : { bearer: [] }],
    'x-status': route.status,
    parameters: [...pathParameters(route.path), ...queryParameters(route)],
    responses: {
      '200': success(route, route.reply),
      default: {
        description: `An error in the ${route.family} dialect; the field or header at fault is named in its message`,
        content: { 'application/json': { schema: ref(FAMILY_ERRORS[route.family]) } },
      },
    },
  };
  if (route.body) {
    const mediaType = route.multipart ? 'multipart/form-data' : 'application/json';
    op.requestBody = { required: true, content: { [mediaType]: { schema: toSchema(route.body) } } };
  } else if (route.multipart) {
    op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } };
  }
  return op;
}

/** OpenAPI 3.1 description of every built route, generated from the route table and the contracts' zod schemas. */
export function buildOpenApiDocument(routes: readonly RouteDef[] = ROUTES, serverUrl = '/'): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes.filter((r) => r.built)) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Model gateway', version: '1.0.0', description: 'One API key and one origin in front of many model families.' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        msgcKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        msgcVersion: { type: 'apiKey', in: 'header', name: 'msgc-version', description: 'Must be 2023-06-01' },
      },
      schemas: replyComponents(),
    },
    paths,
  };
}
