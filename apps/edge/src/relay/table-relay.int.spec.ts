import { GatewayError, parseOrThrow, TenantCaller, type RouteDef } from '@gateway/contracts';
import { NatsRpcTransport, RethrowFilter } from '@gateway/platform';
import { Controller, Injectable, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { EdgeEnv } from '../config/edge-env';
import { createEdgeApp } from '../edge.app';
import { FakeAccounts } from '../testing/fake-accounts';
import { ensureTestSigningSecret, startTestEdge, type TestEdge } from '../testing/start-test-edge';
import { RouteHandler } from '../routing/route-handler.decorator';

// "Adding a route" done once: a route-table entry naming its subject, and the service's handler on that subject. Nothing else.
const NoteId = z.string().regex(/^note_[a-z0-9]+$/, 'not a note id');
const NoteQuery = z.object({ verbose: z.enum(['true', 'false']).optional() });
const NoteCreate = z.object({ text: z.string(), stream: z.boolean().optional() });

const NOTE_GET = 'chat.fixture.notes.get';
const NOTE_CREATE = 'chat.fixture.notes.create';

const NOTE_ROUTES: RouteDef[] = [
  {
    id: 'fixture.notes.get',
    method: 'GET',
    path: '/oaic/v1/notes/{note_id}',
    family: 'oaic',
    auth: 'bearer',
    status: 'Stable',
    summary: 'Retrieve a note',
    built: true,
    query: NoteQuery,
    relay: { subject: NOTE_GET, reply: 'json', shape: 'chat', params: { note_id: { field: 'noteId', schema: NoteId } }, query: true },
  },
  {
    id: 'fixture.notes.create',
    method: 'POST',
    path: '/msgc/v1/notes',
    family: 'msgc',
    auth: 'msgc',
    status: 'Stable',
    summary: 'Create a note',
    built: true,
    body: NoteCreate,
    relay: { subject: NOTE_CREATE, reply: 'json-or-sse', shape: 'chat', fields: { kind: 'plain' } },
  },
];

const NoteGetPayload = TenantCaller.extend({ noteId: NoteId, query: NoteQuery });
const NoteCreatePayload = TenantCaller.extend({ kind: z.literal('plain'), body: NoteCreate });

/** The answering service's side: NATS handlers that parse their payload, as every service's do. */
@Controller()
class NotesHandler {
  @MessagePattern(NOTE_GET)
  get(@Payload() payload: unknown) {
    const { noteId, tenantId, route, query } = parseOrThrow(NoteGetPayload, payload);
    if (noteId === 'note_gone') throw GatewayError.notFound(`No such note: ${noteId}`, 'note_id');
    return { id: noteId, tenantId, route, verbose: query.verbose === 'true' };
  }

  @MessagePattern(NOTE_CREATE)
  create(@Payload() payload: unknown) {
    const { body, kind } = parseOrThrow(NoteCreatePayload, payload);
    return body.stream ? words(body.text) : { id: 'note_1', kind, text: body.text };
  }
}

/** A streamed answer: one SSE event per word, then a failure if the text asks for one. */
async function* words(text: string) {
  for (const word of text.split(' ')) yield `event: word\ndata: ${JSON.stringify({ word })}\n\n`;
  if (text.includes('fail')) throw new GatewayError('upstream_error', 'the upstream stopped');
}

@Module({ controllers: [NotesHandler] })
class NotesServiceModule {}

describe('table relay: one route-table entry and a service handler serve a route', () => {
  let t: TestEdge;
  let service: INestMicroservice;
  let key: string;

  beforeAll(async () => {
    t = await startTestEdge({}, { routes: NOTE_ROUTES, handlerModules: [] });
    service = await NestFactory.createMicroservice(NotesServiceModule, { strategy: new NatsRpcTransport(t.connection, t.prefix, 'chat'), logger: false });
    service.useGlobalFilters(new RethrowFilter());
    await service.listen();
    key = t.accounts.addKey('tenant-n').key;
  });
  afterAll(async () => {
    await service.close();
    await t.stop();
  });

  const get = (path: string) => fetch(t.edge.url + path, { headers: { authorization: `Bearer ${key}` } });
  const post = (body: unknown) =>
    fetch(`${t.edge.url}/msgc/v1/notes`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'x-api-key': key, 'msgc-version': '2023-06-01', 'content-type': 'application/json' },
    });

  it('carries the caller, the path id and the query to the subject and answers its JSON', async () => {
    const res = await get('/oaic/v1/notes/note_7?verbose=true');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'note_7', tenantId: 'tenant-n', route: 'fixture.notes.get', verbose: true });
  });

  it('refuses a malformed path id at the edge, naming the parameter, in the family dialect', async () => {
    const res = await get('/oaic/v1/notes/7');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'note_id' } });
  });

  it("answers the service's error in the family dialect", async () => {
    const res = await get('/oaic/v1/notes/note_gone');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { message: 'No such note: note_gone', param: 'note_id' } });
  });

  it('adds the fixed fields and answers JSON when the body does not ask for a stream', async () => {
    const res = await post({ text: 'hello there' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'note_1', kind: 'plain', text: 'hello there' });
  });

  it('relays a stream as SSE when the body asks for one, a late failure as an error event in the dialect', async () => {
    const ok = await post({ text: 'hello there', stream: true });
    expect(ok.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await ok.text()).toBe('event: word\ndata: {"word":"hello"}\n\nevent: word\ndata: {"word":"there"}\n\n');
    const failed = await (await post({ text: 'then fail', stream: true })).text();
    expect(failed).toMatch(/^event: word\ndata: \{"word":"then"\}\n\n/);
    expect(failed).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"the upstream stopped"\}\}\n\n$/);
  });
});

@Injectable()
class NotesHandlerAtTheEdge {
  @RouteHandler('fixture.notes.get')
  get() {
    return {};
  }
}

@Module({ providers: [NotesHandlerAtTheEdge] })
class EdgeNotesModule {}

describe('table relay: start-up checks', () => {
  const env = () => {
    ensureTestSigningSecret();
    return EdgeEnv.parse({ NATS_PREFIX: FakeAccounts.prefix(), PORT: '0', ADMIN_PORT: '0', LOG_LEVEL: 'error' });
  };

  it('refuses to start when a relayed route also has a handler', async () => {
    await expect(createEdgeApp(env(), { routes: NOTE_ROUTES, handlerModules: [EdgeNotesModule] })).rejects.toThrow(
      /fixture\.notes\.get\) is relayed by the route table and also has a @RouteHandler/,
    );
  });

  it('refuses to start when a relay names a subject of no service', async () => {
    const routes = NOTE_ROUTES.map((r) => (r.relay ? { ...r, relay: { ...r.relay, subject: 'nobody.notes.get' } } : r));
    await expect(createEdgeApp(env(), { routes, handlerModules: [] })).rejects.toThrow('nobody.notes.get names no service');
  });

  it('refuses to start when a relay carries a parameter its path lacks', async () => {
    const routes = NOTE_ROUTES.map((r) => (r.id === 'fixture.notes.get' ? { ...r, path: '/oaic/v1/notes' } : r));
    await expect(createEdgeApp(env(), { routes, handlerModules: [] })).rejects.toThrow(/relays a path parameter it lacks: note_id/);
  });
});
