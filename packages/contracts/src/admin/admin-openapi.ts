import { z } from 'zod';
import { toSchema } from '../routes/openapi';
import { ADMIN_ROUTES, type AdminRoute } from './admin-routes';

type JsonObject = Record<string, unknown>;

/** Every admin refusal: its code, the words to act on, and the field at fault. */
export const AdminErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string(), param: z.string().nullish() }) });

/** `/admin/keys/:id/revoke` as OpenAPI writes it: `/admin/keys/{id}/revoke`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** Each property of an object schema as a parameter `in` the path or the query. */
function parametersOf(route: AdminRoute): JsonObject[] {
  if (route.input !== 'path' && route.input !== 'query') return [];
  const schema = toSchema(route.request) as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: route.input,
    required: route.input === 'path' || (schema.required?.includes(name) ?? false),
    schema: property,
  }));
}

function operation(name: string, route: AdminRoute): JsonObject {
  const op: JsonObject = {
    operationId: `admin.${name}`,
    tags: [route.path.split('/')[2] ?? 'admin'],
    security: [{ adminToken: [] }],
    parameters: parametersOf(route),
    responses: {
      [String(route.status ?? 200)]: { description: 'OK.', content: { 'application/json': { schema: toSchema(route.reply, 'output') } } },
      default: { description: 'A refusal naming the field at fault.', content: { 'application/json': { schema: toSchema(AdminErrorBody, 'output') } } },
    },
  };
  if (route.input === 'body') op.requestBody = { required: true, content: { 'application/json': { schema: toSchema(route.request) } } };
  return op;
}

/** OpenAPI 3.1 description of the admin API, from its route table: what `gatewayctl` calls, for other tools to call too. */
export function buildAdminOpenApiDocument(routes: Readonly<Record<string, AdminRoute>> = ADMIN_ROUTES): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const [name, route] of Object.entries(routes)) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path]![route.method.toLowerCase()] = operation(name, route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Model gateway admin API', version: '1.0.0', description: "The operator's API, on the admin listener, behind the admin token." },
    components: { securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' } } },
    paths,
  };
}
