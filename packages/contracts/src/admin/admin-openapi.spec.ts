import { compileErrors, validate } from '@readme/openapi-parser';
import { buildAdminOpenApiDocument } from './admin-openapi';
import { ADMIN_ROUTES } from './admin-routes';

type ParserInput = Parameters<typeof validate>[0];
type Operation = { operationId: string; parameters: Array<{ name: string; in: string }>; requestBody?: unknown; responses: Record<string, unknown> };

describe('the admin API OpenAPI document', () => {
  const doc = buildAdminOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };

  it('is a valid OpenAPI 3.1 document, without warnings', async () => {
    const result = await validate(structuredClone(doc) as unknown as ParserInput);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.warnings).toEqual([]);
  });

  it('describes every route of the admin table, with its parameters, body and answer', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.map(({ op }) => op.operationId).sort()).toEqual(
      Object.keys(ADMIN_ROUTES)
        .map((name) => `admin.${name}`)
        .sort(),
    );
    const revoke = doc.paths['/admin/keys/{id}/revoke']!.post!;
    expect(revoke.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
    const create = doc.paths['/admin/tenants']!.post!;
    expect([create.requestBody !== undefined, Object.keys(create.responses)]).toEqual([true, ['201', 'default']]);
    expect(doc.paths['/admin/usage']!.get!.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(['query:tenant', 'query:by']));
  });
});
