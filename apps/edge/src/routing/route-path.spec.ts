import { ROUTES } from '@gateway/contracts';
import Fastify from 'fastify';
import { pathParameterNames, toFastifyPath } from './route-path';

describe('toFastifyPath', () => {
  it.each([
    ['/oaic/v1/models', '/oaic/v1/models'],
    ['/oaic/v1/files/{file_id}', '/oaic/v1/files/:file_id'],
    ['/oaic/v1/threads/{thread_id}/runs', '/oaic/v1/threads/:thread_id/runs'],
    ['/genc/v1beta/models/{model}:generateContent', '/genc/v1beta/models/:model(^[^/:]+)::generateContent'],
    ['/genc/v1beta/models/{model}:streamGenerateContent', '/genc/v1beta/models/:model(^[^/:]+)::streamGenerateContent'],
  ])('%s → %s', (input, output) => {
    expect(toFastifyPath(input)).toBe(output);
  });

  it('names path parameters', () => {
    expect(pathParameterNames('/a/{x}/b/{y}:verb')).toEqual(['x', 'y']);
  });

  // Uses the router only (inject, no socket): the two genc routes differ only after the parameter.
  it('lets find-my-way tell both genc routes apart and extract the model', async () => {
    const fastify = Fastify();
    for (const route of ROUTES.filter((r) => r.family === 'genc')) {
      fastify.post(toFastifyPath(route.path), async (request) => ({ id: route.id, params: request.params }));
    }
    const call = (url: string) => fastify.inject({ method: 'POST', url, payload: {} });
    const generate = await call('/genc/v1beta/models/sandbox-gem.1:generateContent');
    expect(generate.json()).toEqual({ id: 'genc.generate', params: { model: 'sandbox-gem.1' } });
    const stream = await call('/genc/v1beta/models/sandbox-gem:streamGenerateContent?alt=sse');
    expect(stream.json()).toEqual({ id: 'genc.stream', params: { model: 'sandbox-gem' } });
    expect((await call('/genc/v1beta/models/x:countTokens')).statusCode).toBe(404);
    expect((await call('/genc/v1beta/models/a/b:generateContent')).statusCode).toBe(404);
    await fastify.close();
  });

  it('registers every route of the table without a clash', async () => {
    const fastify = Fastify();
    for (const route of ROUTES) fastify.route({ method: route.method, url: toFastifyPath(route.path), handler: async () => route.id });
    await expect(fastify.ready()).resolves.toBeDefined();
    await fastify.close();
  });
});
