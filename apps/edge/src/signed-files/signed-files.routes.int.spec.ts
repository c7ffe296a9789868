import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalObjectStore, UrlSigner } from '@gateway/storage';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerSignedFileRoute } from './signed-files.routes';

describe('GET /files/signed/{token}', () => {
  let dir: string;
  let fastify: FastifyInstance;
  const signer = new UrlSigner('signed-files-spec-secret');
  const bytes = Buffer.from('not really an mp4, but bytes all the same');

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'signed-files-'));
    const store = new LocalObjectStore(dir);
    await store.put('media/tenant_a/task_1/video.mp4', bytes, 'video/mp4');
    await store.put('media/tenant_a/task_1/page.html', Buffer.from('<script>alert(1)</script>'), 'text/html');
    fastify = Fastify();
    registerSignedFileRoute(fastify, signer, store);
    await fastify.ready();
  });

  afterAll(async () => {
    await fastify.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('streams the object with its content type to whoever holds a valid link, without an API key', async () => {
    const url = signer.path('media/tenant_a/task_1/video.mp4', Date.now() / 1000 + 60);
    const response = await fastify.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe('inline');
    expect(response.headers['content-security-policy']).toBe('sandbox');
    expect(response.rawPayload.equals(bytes)).toBe(true);
  });

  it('serves an object stored as text/html as an inert download', async () => {
    const response = await fastify.inject({ method: 'GET', url: signer.path('media/tenant_a/task_1/page.html', Date.now() / 1000 + 60) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe('attachment');
    expect(response.headers['content-security-policy']).toBe('sandbox');
  });

  it('refuses an expired, tampered or foreign link with 403 naming the token, and a missing object with 404', async () => {
    const expired = await fastify.inject({ method: 'GET', url: signer.path('media/tenant_a/task_1/video.mp4', Date.now() / 1000 - 1) });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error.param).toBe('token');
    const foreign = await fastify.inject({
      method: 'GET',
      url: new UrlSigner('some-other-secret-value').path('media/tenant_a/task_1/video.mp4', Date.now() / 1000 + 60),
    });
    expect(foreign.statusCode).toBe(403);
    const gone = await fastify.inject({ method: 'GET', url: signer.path('media/tenant_a/task_2/video.mp4', Date.now() / 1000 + 60) });
    expect(gone.statusCode).toBe(404);
  });
});
