import { ConsoleUsageMessage, GatewayError, SUBJECTS, type ConsoleSessionContext } from '@gateway/contracts';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request } from 'undici';
import { startTestEdge, type TestEdge } from '../testing/start-test-edge';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const token = () => randomBytes(32).toString('base64url');

const record = (n: number) => ({
  requestId: `req-${n}`,
  clientRequestId: n === 2 ? '=HYPERLINK("x")' : null,
  keyId: randomUUID(),
  modelId: 'sandbox-gpt',
  route: 'oaic.chat.completions',
  promptTokens: n,
  completionTokens: 2 * n,
  outcome: 'ok',
  status: 200,
  at: new Date(Date.UTC(2026, 10, 27, 12, 0, 60 - n)).toISOString(),
  kind: 'chat',
  subjectId: null,
  latencyMs: 10 * n,
  costMicros: String(n),
  cost: `0.00000${n}`,
});

const task = (id: string, holdId: string | null) => ({
  id,
  kind: holdId ? 'media' : 'batch',
  route: 'oaic.videos.create',
  model: 'sandbox-sora',
  status: 'succeeded',
  progress: 100,
  createdAt: new Date().toISOString(),
  finishedAt: null,
  error: null,
  results: [],
  fileIds: [],
  holdId,
});

/** The tenant console's data routes on an edge with fake services behind it: CSV streaming, charges joined to tasks, roles. */
describe('console data routes on the edge (fake services)', () => {
  let t: TestEdge;
  const sessions = new Map<string, ConsoleSessionContext>();
  const tenantId = randomUUID();
  const asked: { subject: string; payload: Record<string, unknown> }[] = [];

  /** Whose session a cookie names: the person's id is what a project rights check reads. */
  const userOf = new Map<string, string>();

  function session(role: 'owner' | 'developer' | 'viewer') {
    const secret = token();
    const userId = randomUUID();
    userOf.set(role, userId);
    const context: ConsoleSessionContext = {
      sessionId: randomUUID(),
      kind: 'tenant',
      userId,
      email: `${role}@example.com`,
      role,
      tenantId,
      tenantSlug: 'acme',
      csrfToken: token(),
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    };
    sessions.set(sha256(secret), context);
    return { origin: t.edge.url, cookie: `gw_console=${secret}`, 'x-csrf-token': context.csrfToken };
  }

  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers: Record<string, string>, json?: unknown) {
    const response = await request(`${t.edge.url}/console/api${path}`, {
      method,
      headers: { ...headers, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.body.text();
    return {
      status: response.statusCode,
      headers: response.headers,
      text,
      body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    };
  }

  const record_ = (subject: string, answer: (payload: Record<string, unknown>) => unknown) =>
    t.accounts.on(subject, (payload) => {
      asked.push({ subject, payload: payload as Record<string, unknown> });
      return answer(payload as Record<string, unknown>);
    });

  beforeAll(async () => {
    t = await startTestEdge({ ADMIN_TOKEN: 'admin-secret' });
    t.accounts.on(SUBJECTS.accounts.console.sessions.resolve, (payload) => sessions.get((payload as { tokenHash: string }).tokenHash) ?? null);
    // Five records, two a page: the export follows the cursors to the end.
    record_(SUBJECTS.accounts.console.usage.records, (payload) => {
      if (payload.model === 'fails-later' && payload.cursor !== undefined) throw new Error('the records service went away');
      if (payload.model === 'fails-first') throw new Error('the records service went away');
      const from = payload.cursor === undefined ? 1 : Number(payload.cursor);
      const data = [from, from + 1].filter((n) => n <= 5).map(record);
      return { data, nextCursor: from + 2 <= 5 ? String(from + 2) : null };
    });
    record_(SUBJECTS.media.console.tasks, () => ({ data: [task('video_1', 'video_1'), task('video_2', 'video_2')], nextCursor: 'next' }));
    record_(SUBJECTS.files.console.batches, () => ({ data: [task('batch_1', null)], nextCursor: null }));
    record_(SUBJECTS.accounts.console.charges, (payload) => ({
      data: [...(payload.requestIds as string[]), ...(payload.subjectIds as string[])]
        .filter((id) => id !== 'video_2')
        .map((id) => ({ requestId: id, heldMicros: '100', chargedMicros: '40', refundedMicros: '60', charged: '0.000040', refunded: '0.000060' })),
    }));
    record_(SUBJECTS.music.webhooks.console.redeliver, (payload) => ({
      id: payload.id,
      taskId: 'task',
      eventType: 'complete',
      url: 'https://hooks.example.com/',
      status: 'pending',
      attempts: 1,
      nextAttemptAt: null,
      createdAt: new Date().toISOString(),
      deliveredAt: null,
      history: [],
    }));
    record_(SUBJECTS.accounts.console.keyLimits.set, (payload) => ({
      id: payload.id,
      own: payload.limits,
      tenantDefault: null,
      effective: payload.limits,
      tenant: null,
    }));
    // Parsed as accounts parses it: a message with a field the schema does not know is refused.
    record_(SUBJECTS.accounts.console.usage.summary, (payload) => {
      const { by } = ConsoleUsageMessage.parse(payload);
      return { by, since: null, until: null, rows: [], totalCostMicros: '0', totalCost: '0.000000' };
    });
    // Accounts checks project rights: here, only the owner's person may change a budget.
    record_(SUBJECTS.accounts.console.projects.setBudget, (payload) => {
      if (payload.userId !== userOf.get('owner')) throw new GatewayError('permission_denied', 'Your role on project "web" (developer) may not do this.');
      const amount = {
        amount: '10.000000',
        amountMicros: payload.amountMicros,
        used: '0.000000',
        usedMicros: '0',
        left: '10.000000',
        leftMicros: payload.amountMicros,
      };
      return {
        scope: 'project',
        tenant: 'acme',
        key: null,
        project: payload.project,
        ...amount,
        period: payload.period,
        mode: payload.mode,
        alertAt: payload.alertAt,
        periodStart: null,
        resetsAt: null,
      };
    });
    record_(SUBJECTS.accounts.console.projects.clearBudget, () => {
      throw new GatewayError('permission_denied', 'Your role on project "web" (viewer) may not do this.');
    });
  });

  afterAll(() => t?.stop());

  beforeEach(() => {
    asked.length = 0;
  });

  it('streams every record as CSV, page after page, with formula-like cells defused', async () => {
    const csv = await call('GET', '/usage/export.csv?of=records&kind=chat', session('viewer'));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="usage-records-acme-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('request_id,at,kind,model,key_id,route,prompt_tokens,completion_tokens,latency_ms,outcome,status,cost,subject_id,client_request_id');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['req-1', 'req-2', 'req-3', 'req-4', 'req-5']);
    expect(lines[2]).toMatch(/,"'=HYPERLINK\(""x""\)"$/);
    const pages = asked.filter((a) => a.subject === SUBJECTS.accounts.console.usage.records);
    expect(pages.map((a) => a.payload.cursor)).toEqual([undefined, '3', '5']);
    // The tenant comes from the session, never from the query.
    expect(pages.every((a) => a.payload.tenantId === tenantId && a.payload.kind === 'chat')).toBe(true);
  });

  it('refuses a bad export parameter, or a first page that fails, as JSON before any CSV', async () => {
    const since = await call('GET', '/usage/export.csv?of=summary&since=0000-01-01T00:00:00Z', session('viewer'));
    expect(since.status).toBe(400);
    expect(since.body).toEqual({ error: expect.objectContaining({ code: 'invalid_request', param: 'since' }) });
    expect(String(since.body!.error && (since.body!.error as { message: string }).message)).toContain("query parameter 'since'");
    const first = await call('GET', '/usage/export.csv?of=records&model=fails-first', session('viewer'));
    expect(first.status).toBe(500);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
  });

  it('ends an export that fails after its first rows with a marker line, not a cut connection', async () => {
    const csv = await call('GET', '/usage/export.csv?of=records&model=fails-later', session('viewer'));
    expect(csv.status).toBe(200);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines.slice(1, 3).map((line) => line.split(',')[0])).toEqual(['req-1', 'req-2']);
    expect(lines.at(-1)).toMatch(/^# export failed: /);
  });

  it('joins each task to its charge: a task by its hold, a batch by its records', async () => {
    const media = await call('GET', '/tasks?kind=media', session('viewer'));
    expect(media.status).toBe(200);
    const data = media.body!.data as { id: string; charge: { chargedMicros: string } | null }[];
    expect(data.map((d) => [d.id, d.charge?.chargedMicros ?? null])).toEqual([
      ['video_1', '40'],
      ['video_2', null],
    ]);
    expect(media.body!.nextCursor).toBe('next');
    expect(asked.find((a) => a.subject === SUBJECTS.media.console.tasks)!.payload).toMatchObject({ tenantId, origin: t.edge.url, limit: 20 });
    expect(asked.find((a) => a.subject === SUBJECTS.accounts.console.charges)!.payload).toEqual({
      tenantId,
      requestIds: ['video_1', 'video_2'],
      subjectIds: [],
    });

    asked.length = 0;
    const batches = await call('GET', '/tasks?kind=batch&status=succeeded', session('viewer'));
    expect((batches.body!.data as { charge: { refundedMicros: string } }[])[0]!.charge.refundedMicros).toBe('60');
    expect(asked.find((a) => a.subject === SUBJECTS.accounts.console.charges)!.payload).toEqual({ tenantId, requestIds: [], subjectIds: ['batch_1'] });
    expect((await call('GET', '/tasks?kind=nope', session('viewer'))).body).toMatchObject({ error: { code: 'invalid_request', param: 'kind' } });
  });

  it('lets owners and developers redeliver and set key limits; a viewer gets 403 and nothing is asked', async () => {
    const keyId = randomUUID();
    const viewer = session('viewer');
    expect((await call('POST', '/webhooks/deliveries/msg_abc/redeliver', viewer)).status).toBe(403);
    expect((await call('PUT', `/keys/${keyId}/limits`, viewer, { limits: { rpm: 5 } })).status).toBe(403);
    expect(asked).toEqual([]);

    const developer = session('developer');
    const redelivered = await call('POST', '/webhooks/deliveries/msg_abc/redeliver', developer);
    expect(redelivered).toMatchObject({ status: 200, body: { id: 'msg_abc', status: 'pending' } });
    expect(asked.at(-1)).toEqual({ subject: SUBJECTS.music.webhooks.console.redeliver, payload: { id: 'msg_abc', tenantId } });
    const set = await call('PUT', `/keys/${keyId}/limits`, developer, { limits: { rpm: 5 } });
    expect(set).toMatchObject({ status: 200, body: { own: { rpm: 5 } } });
    expect(asked.at(-1)).toEqual({ subject: SUBJECTS.accounts.console.keyLimits.set, payload: { tenant: 'acme', id: keyId, limits: { rpm: 5 } } });
    expect((await call('PUT', `/keys/${keyId}/limits`, developer, { limits: { rpm: 0 } })).body).toMatchObject({ error: { code: 'invalid_request' } });
    // Without the CSRF token, even an owner is refused.
    const { 'x-csrf-token': _csrf, ...noCsrf } = session('owner');
    expect((await call('POST', '/webhooks/deliveries/msg_abc/redeliver', noCsrf)).status).toBe(403);
  });

  it('relays the usage summary with the tenant of the session and nothing more', async () => {
    const summary = await call('GET', '/usage/summary?by=model', session('viewer'));
    expect(summary).toMatchObject({ status: 200, body: { by: 'model', rows: [] } });
    expect(asked.at(-1)).toEqual({ subject: SUBJECTS.accounts.console.usage.summary, payload: { by: 'model', tenant: 'acme', tenantId } });
  });

  it('relays a budget change with the person who asks, and answers the refusal of the service with 403', async () => {
    const keyId = randomUUID();
    const developer = session('developer');
    const refused = await call('PUT', `/keys/${keyId}/budget`, developer, { amount: '2.50', period: 'week' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'permission_denied' } } });
    expect(asked.at(-1)).toEqual({
      subject: SUBJECTS.accounts.console.projects.setBudget,
      payload: { tenant: 'acme', userId: userOf.get('developer'), key: keyId, amountMicros: '2500000', period: 'week', mode: 'hard', alertAt: [50, 80, 100] },
    });
    expect((await call('DELETE', '/projects/web/budget', session('viewer'))).status).toBe(403);
    expect(asked.at(-1)).toEqual({
      subject: SUBJECTS.accounts.console.projects.clearBudget,
      payload: { tenant: 'acme', userId: userOf.get('viewer'), project: 'web' },
    });

    const owner = session('owner');
    const set = await call('PUT', '/projects/web/budget', owner, { amount: '10', period: 'month', mode: 'soft', alertAt: [90] });
    expect(set.status).toBe(200);
    expect(asked.at(-1)!.payload).toMatchObject({ userId: userOf.get('owner'), project: 'web', amountMicros: '10000000', mode: 'soft', alertAt: [90] });
    expect((await call('PUT', '/projects/Not A Name/budget', owner, { amount: '1', period: 'day' })).status).toBe(400);
  });
});
