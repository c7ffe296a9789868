import { z } from 'zod';
import { ROUTES } from './route-table';
import type { RouteDef } from './route.types';

type JsonObject = Record<string, unknown>;

function toSchema(schema: z.ZodType): JsonObject {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
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
  const op: JsonObject = {
    operationId: `${route.id}${route.path.startsWith('/v1/') && route.family === 'oaic' ? '.v1' : ''}`,
    summary: route.summary,
    tags: [route.family],
    security: [route.auth === 'msgc' ? { msgcKey: [], msgcVersion: [] } : { bearer: [] }],
    'x-status': route.status,
    parameters: [...pathParameters(route.path), ...queryParameters(route)],
    responses: { '200': { description: 'Success' }, default: { description: "Error in the family's dialect" } },
  };
  if (route.body) {
    const mediaType = route.multipart ? 'multipart/form-data' : 'application/json';
    op.requestBody = { required: true, content: { [mediaType]: { schema: toSchema(route.body) } } };
  } else if (route.multipart) {
    op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } };
  }
  return op;
}

/** OpenAPI 3.1 description of every built route, generated from the route table. */
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
    },
    paths,
  };
}
