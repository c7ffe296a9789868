/**
 * The assistants pass-through with the official openai SDK: assistants, threads, messages and runs reach
 * the sandbox's assistants API through the channel flagged for it, model names cross as catalog ids, a
 * run is metered and charged from the usage the upstream reports (also when the client never asks about
 * it again: the chat service's run sweeper asks the upstream), another tenant's ids read as missing ones,
 * and a model without an assistants channel is refused naming the route.
 */
import OpenAI, { BadRequestError, NotFoundError } from 'openai';
import { chargeOf, eventually, withSql } from './support/billing-fixtures';
import { e2eEnv } from './support/e2e-env';
import { createTenantWithKey, openaiClient, uniqueSlug, type TenantWithKey } from './support/gateway';

interface UsageRow {
  route: string;
  model_id: string;
  prompt_tokens: number;
  completion_tokens: number;
  outcome: string;
}

function usageRow(requestId: string): Promise<UsageRow | undefined> {
  return withSql(async (sql) => (await sql.query<UsageRow>('SELECT * FROM usage_records WHERE request_id = $1', [requestId])).rows[0]);
}

function ledgerKinds(requestId: string): Promise<string[]> {
  return withSql(async (sql) => (await sql.query('SELECT kind FROM ledger_entries WHERE request_id = $1', [requestId])).rows.map((r) => r.kind as string));
}

function textOf(message: OpenAI.Beta.Threads.Message): string {
  return message.content.map((part) => (part.type === 'text' ? part.text.value : '')).join('');
}

describe('assistants pass-through', () => {
  // A private model on the sandbox's assistants channel, under an id of its own: what the client sees is that id.
  const model = `assistant-${uniqueSlug('gpt')}`;
  // The same upstream, its stream events 300 ms apart: a client can leave a streamed run before it ends.
  const slowModel = `${model}-slow`;
  // The same upstream, each run working 1.5 s before it completes; and one whose runs never end (10 minutes).
  const workingModel = `${model}-working`;
  const stuckModel = `${model}-stuck`;
  const sweptModel = (id: string, upstreamModel: string) => ({
    id,
    displayName: 'Assistants model (runs take time)',
    capability: 'chat' as const,
    public: false,
    provider: 'sandbox-openai',
    upstreamModel,
    assistants: true,
    maxOutputTokens: 512,
    prices: { inputPerMTok: '1.00', outputPerMTok: '2.00' },
  });
  // The sandbox itself, as the gateway's upstream account: what it reports of a run, asked without the gateway.
  let upstream: OpenAI;
  let tenant: TenantWithKey;
  let other: TenantWithKey;
  let client: OpenAI;
  let otherClient: OpenAI;
  let assistantId: string;
  let threadId: string;

  beforeAll(async () => {
    tenant = await createTenantWithKey({
      label: 'assistants',
      models: [model, slowModel, workingModel, stuckModel],
      catalog: {
        models: [
          {
            id: model,
            displayName: 'Assistants model',
            capability: 'chat',
            public: false,
            provider: 'sandbox-openai',
            upstreamModel: 'sandbox-gpt',
            assistants: true,
            prices: { inputPerMTok: '1.00', outputPerMTok: '2.00' },
          },
          {
            id: slowModel,
            displayName: 'Assistants model (slow stream)',
            capability: 'chat',
            public: false,
            provider: 'sandbox-openai',
            upstreamModel: 'sandbox-gpt@chunk=300',
            assistants: true,
            prices: { inputPerMTok: '1.00', outputPerMTok: '2.00' },
          },
          sweptModel(workingModel, 'sandbox-gpt@run=1500'),
          sweptModel(stuckModel, 'sandbox-gpt@run=600000'),
        ],
      },
    });
    other = await createTenantWithKey({ label: 'assistants-other' });
    client = openaiClient(tenant.key);
    otherClient = openaiClient(other.key);
    upstream = new OpenAI({ apiKey: 'sk-sandbox-upstream', baseURL: `${e2eEnv().GW_E2E_SANDBOX_URL}/openai/v1`, maxRetries: 0 });
  });

  it('creates, retrieves, updates and lists assistants, with the catalog model id', async () => {
    const created = await client.beta.assistants.create({ model, name: 'Helper', instructions: 'Answer briefly.', metadata: { team: 'e2e' } });
    assistantId = created.id;
    expect(created).toMatchObject({ object: 'assistant', model, name: 'Helper', instructions: 'Answer briefly.', metadata: { team: 'e2e' } });
    expect(await client.beta.assistants.retrieve(assistantId)).toMatchObject({ id: assistantId, model, name: 'Helper' });
    const updated = await client.beta.assistants.update(assistantId, { name: 'Helper 2', model });
    expect(updated).toMatchObject({ id: assistantId, name: 'Helper 2', model });

    const second = await client.beta.assistants.create({ model: 'sandbox-gpt', name: 'Second' });
    expect(second.model).toBe('sandbox-gpt');
    const page = await client.beta.assistants.list({ limit: 1 });
    expect(page.data.map((a) => a.id)).toEqual([second.id]);
    expect(page.has_more).toBe(true);
    const all = [];
    for await (const assistant of client.beta.assistants.list({ limit: 1 })) all.push(assistant.id);
    expect(all).toEqual([second.id, assistantId]);
    expect((await client.beta.assistants.list({ order: 'asc' })).data.map((a) => a.id)).toEqual([assistantId, second.id]);
    // Another tenant lists only its own (none), though both use the same upstream account.
    expect((await otherClient.beta.assistants.list()).data).toEqual([]);

    expect(await client.beta.assistants.delete(second.id)).toEqual({ id: second.id, object: 'assistant.deleted', deleted: true });
    await expect(client.beta.assistants.retrieve(second.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.beta.assistants.list()).data.map((a) => a.id)).toEqual([assistantId]);
  });

  it('creates, retrieves and updates a thread, and adds and lists its messages', async () => {
    const thread = await client.beta.threads.create({ messages: [{ role: 'user', content: 'Hello there' }], metadata: { case: 'one' } });
    threadId = thread.id;
    expect(thread).toMatchObject({ object: 'thread', metadata: { case: 'one' } });
    expect(await client.beta.threads.retrieve(threadId)).toMatchObject({ id: threadId, metadata: { case: 'one' } });
    expect(await client.beta.threads.update(threadId, { metadata: { case: 'two' } })).toMatchObject({ id: threadId, metadata: { case: 'two' } });
    const message = await client.beta.threads.messages.create(threadId, { role: 'user', content: 'What is the weather?' });
    expect(message).toMatchObject({ object: 'thread.message', thread_id: threadId, role: 'user' });
    const listed = await client.beta.threads.messages.list(threadId, { order: 'asc' });
    expect(listed.data.map(textOf)).toEqual(['Hello there', 'What is the weather?']);
  });

  it('runs an assistant on a thread, meters the run and charges what the upstream reports', async () => {
    const { data: run, response } = await client.beta.threads.runs.create(threadId, { assistant_id: assistantId }).withResponse();
    expect(run).toMatchObject({ object: 'thread.run', thread_id: threadId, assistant_id: assistantId, status: 'completed', model });
    expect(run.usage?.completion_tokens).toBeGreaterThan(0);
    const messages = await client.beta.threads.messages.list(threadId);
    expect(messages.data[0]).toMatchObject({ role: 'assistant', run_id: run.id, assistant_id: assistantId });
    expect(textOf(messages.data[0]!)).toBe('You said: What is the weather?');
    const runs = await client.beta.threads.runs.list(threadId);
    expect(runs.data.map((r) => [r.id, r.status, r.model])).toEqual([[run.id, 'completed', model]]);

    const requestId = response.headers.get('x-request-id')!;
    const row = await eventually(
      'the run usage row',
      () => usageRow(requestId),
      (r) => r !== undefined,
    );
    expect(row).toMatchObject({
      route: 'oaic.threads.runs.create',
      model_id: model,
      prompt_tokens: run.usage!.prompt_tokens,
      completion_tokens: run.usage!.completion_tokens,
      outcome: 'ok',
    });
    // 1.00 and 2.00 per million tokens, in micro-units, rounded up.
    const expected = BigInt(Math.ceil(run.usage!.prompt_tokens * 1 + run.usage!.completion_tokens * 2));
    expect((await chargeOf(requestId)).charged).toBe(expected);
  });

  it('streams a run: the events arrive and the final message is the answer', async () => {
    await client.beta.threads.messages.create(threadId, { role: 'user', content: 'Tell me a story' });
    const stream = client.beta.threads.runs.stream(threadId, { assistant_id: assistantId });
    const events: string[] = [];
    let deltas = '';
    stream.on('event', (event) => events.push(event.event));
    stream.on('textDelta', (delta) => (deltas += delta.value ?? ''));
    const messages = await stream.finalMessages();
    const run = await stream.finalRun();
    expect(events).toEqual(
      expect.arrayContaining([
        'thread.run.created',
        'thread.run.in_progress',
        'thread.message.created',
        'thread.message.delta',
        'thread.message.completed',
        'thread.run.completed',
      ]),
    );
    expect(events.indexOf('thread.run.created')).toBeLessThan(events.indexOf('thread.message.delta'));
    expect(events[events.length - 1]).toBe('thread.run.completed');
    expect(textOf(messages[messages.length - 1]!)).toBe('You said: Tell me a story');
    expect(deltas).toBe('You said: Tell me a story');
    expect(run).toMatchObject({ status: 'completed', model });
    expect((await client.beta.threads.runs.list(threadId)).data.map((r) => r.id)).toContain(run.id);
  });

  it('streams a run asked for with create({stream: true})', async () => {
    const stream = await client.beta.threads.runs.create(threadId, { assistant_id: assistantId, stream: true });
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.event);
    expect(seen[0]).toBe('thread.run.created');
    expect(seen).toContain('thread.message.delta');
    expect(seen[seen.length - 1]).toBe('thread.run.completed');
  });

  it('bills a streamed run the client left before its end once the run is listed, exactly once', async () => {
    const assistant = await client.beta.assistants.create({ model: slowModel, instructions: 'Answer briefly.' });
    const thread = await client.beta.threads.create({ messages: [{ role: 'user', content: 'Left early' }] });
    const { data: stream, response } = await client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id, stream: true }).withResponse();
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.event);
      break; // leaves the stream: the gateway cancels its upstream call long before the run's last event
    }
    expect(seen).toEqual(['thread.run.created']);
    const requestId = response.headers.get('x-request-id')!;
    // The run went on upstream; listing the thread's runs is where the gateway now sees it ended.
    const listed = await eventually(
      'the run listed as completed',
      async () => (await client.beta.threads.runs.list(thread.id)).data,
      (runs) => runs[0]?.status === 'completed',
    );
    expect(listed[0]).toMatchObject({ model: slowModel, assistant_id: assistant.id });
    const usage = listed[0]!.usage!;
    const row = await eventually(
      'the run usage row',
      () => usageRow(requestId),
      (r) => r !== undefined,
    );
    expect(row).toMatchObject({
      route: 'oaic.threads.runs.create',
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      outcome: 'ok',
    });
    expect((await chargeOf(requestId)).charged).toBe(BigInt(usage.prompt_tokens + 2 * usage.completion_tokens));
    // Listing again records nothing more.
    await client.beta.threads.runs.list(thread.id);
    expect((await ledgerKinds(requestId)).filter((kind) => kind === 'settle')).toHaveLength(1);
    await client.beta.assistants.delete(assistant.id);
    await client.beta.threads.delete(thread.id);
  });

  it('bills a run the client never asks about again, at the usage the upstream reports, exactly once', async () => {
    const assistant = await client.beta.assistants.create({ model: workingModel });
    const thread = await client.beta.threads.create({ messages: [{ role: 'user', content: 'No hurry' }] });
    const { data: run, response } = await client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id }).withResponse();
    // Still working when the create call answers, and sent upstream with the model's output cap as its bound.
    expect(run).toMatchObject({ status: 'in_progress', usage: null, model: workingModel, max_completion_tokens: 512 });
    const requestId = response.headers.get('x-request-id')!;
    // The client asks nothing more; the gateway's sweeper asks the upstream until the run has ended.
    const row = await eventually(
      'the run usage row',
      () => usageRow(requestId),
      (r) => r !== undefined,
    );
    const reported = await upstream.beta.threads.runs.retrieve(run.id, { thread_id: thread.id });
    expect(reported.status).toBe('completed');
    const usage = reported.usage!;
    expect(row).toMatchObject({
      route: 'oaic.threads.runs.create',
      model_id: workingModel,
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      outcome: 'ok',
    });
    expect((await chargeOf(requestId)).charged).toBe(BigInt(usage.prompt_tokens + 2 * usage.completion_tokens));
    // Later sweeps and a listing record nothing more.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await client.beta.threads.runs.list(thread.id);
    const kinds = await ledgerKinds(requestId);
    expect(kinds.filter((kind) => kind === 'settle')).toHaveLength(1);
    expect(kinds).not.toContain('release');
    expect(await withSql(async (sql) => (await sql.query('SELECT count(*)::int AS n FROM usage_records WHERE request_id = $1', [requestId])).rows[0].n)).toBe(
      1,
    );
  });

  it('bills a streamed run abandoned after its first event without any list call', async () => {
    const assistant = await client.beta.assistants.create({ model: workingModel });
    const thread = await client.beta.threads.create({ messages: [{ role: 'user', content: 'Gone after the first event' }] });
    const { data: stream, response } = await client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id, stream: true }).withResponse();
    let runId = '';
    for await (const event of stream) {
      if (event.event === 'thread.run.created') runId = event.data.id;
      break; // the run works on upstream for 1.5 s; nobody hears its end
    }
    expect(runId).toMatch(/^run_/);
    const requestId = response.headers.get('x-request-id')!;
    const row = await eventually(
      'the run usage row',
      () => usageRow(requestId),
      (r) => r !== undefined,
    );
    const reported = await upstream.beta.threads.runs.retrieve(runId, { thread_id: thread.id });
    const usage = reported.usage!;
    expect(row).toMatchObject({ prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, outcome: 'ok' });
    expect((await chargeOf(requestId)).charged).toBe(BigInt(usage.prompt_tokens + 2 * usage.completion_tokens));
    expect((await ledgerKinds(requestId)).filter((kind) => kind === 'settle')).toHaveLength(1);
  });

  it('gives up a run still not ended at the deadline, and one gone upstream: hold released, usage row expired, once', async () => {
    const assistant = await client.beta.assistants.create({ model: stuckModel });
    const thread = await client.beta.threads.create({ messages: [{ role: 'user', content: 'Never done' }] });
    const gone = await client.beta.threads.create({ messages: [{ role: 'user', content: 'Deleted under the run' }] });
    const { response: stuckResponse } = await client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id }).withResponse();
    const { response: goneResponse } = await client.beta.threads.runs.create(gone.id, { assistant_id: assistant.id }).withResponse();
    // The upstream forgets the second thread and its run (deleted there, not through the gateway): its next look finds a 404.
    await upstream.beta.threads.delete(gone.id);
    const goneId = goneResponse.headers.get('x-request-id')!;
    const goneRow = await eventually(
      'the usage row of the run gone upstream',
      () => usageRow(goneId),
      (r) => r !== undefined,
      5000,
    );
    expect(goneRow).toMatchObject({ route: 'oaic.threads.runs.create', prompt_tokens: 0, completion_tokens: 0, outcome: 'expired' });
    expect((await chargeOf(goneId)).charged).toBe(0n);
    // The e2e stack's deadline is 8 s (ASSISTANT_RUN_DEADLINE_MS).
    const stuckId = stuckResponse.headers.get('x-request-id')!;
    expect(await usageRow(stuckId)).toBeUndefined();
    const stuckRow = await eventually(
      'the usage row of the run past its deadline',
      () => usageRow(stuckId),
      (r) => r !== undefined,
      20_000,
    );
    expect(stuckRow).toMatchObject({ model_id: stuckModel, prompt_tokens: 0, completion_tokens: 0, outcome: 'expired' });
    expect((await chargeOf(stuckId)).charged).toBe(0n);
    expect(await ledgerKinds(stuckId)).toEqual(expect.arrayContaining(['release']));
    expect((await ledgerKinds(stuckId)).filter((kind) => kind === 'release' || kind === 'settle')).toHaveLength(1);
  }, 40_000);

  it("answers another tenant's assistant and thread ids exactly like missing ones, on every route", async () => {
    const calls: Array<[string, (c: OpenAI) => Promise<unknown>]> = [
      ['assistants.retrieve', (c) => c.beta.assistants.retrieve(assistantId)],
      ['assistants.update', (c) => c.beta.assistants.update(assistantId, { name: 'stolen' })],
      ['assistants.delete', (c) => c.beta.assistants.delete(assistantId)],
      ['threads.retrieve', (c) => c.beta.threads.retrieve(threadId)],
      ['threads.update', (c) => c.beta.threads.update(threadId, { metadata: { x: 'y' } })],
      ['threads.delete', (c) => c.beta.threads.delete(threadId)],
      ['messages.create', (c) => c.beta.threads.messages.create(threadId, { role: 'user', content: 'hi' })],
      ['messages.list', (c) => c.beta.threads.messages.list(threadId)],
      ['runs.create', (c) => c.beta.threads.runs.create(threadId, { assistant_id: assistantId })],
      ['runs.list', (c) => c.beta.threads.runs.list(threadId)],
    ];
    for (const [name, call] of calls) {
      const error = await call(otherClient).catch((e: unknown) => e);
      expect([name, error]).toEqual([name, expect.any(NotFoundError)]);
      expect((error as NotFoundError).error).toMatchObject({ type: expect.any(String), message: expect.stringContaining('No ') });
    }
    // On a thread of its own, the other tenant cannot run this tenant's assistant either.
    const own = await otherClient.beta.threads.create();
    const borrowed = await otherClient.beta.threads.runs.create(own.id, { assistant_id: assistantId }).catch((e: unknown) => e);
    expect(borrowed).toBeInstanceOf(NotFoundError);
    expect((borrowed as NotFoundError).param).toBe('assistant_id');
    // The owner still has everything.
    expect((await client.beta.assistants.retrieve(assistantId)).name).toBe('Helper 2');
    expect((await client.beta.threads.retrieve(threadId)).id).toBe(threadId);
  });

  it('refuses a model without an assistants channel, naming the route and the model', async () => {
    for (const refused of ['sandbox-claude', 'sandbox-gpt-failover']) {
      const error = await client.beta.assistants.create({ model: refused }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).param).toBe('model');
      expect((error as BadRequestError).message).toContain('POST /oaic/v1/assistants');
    }
    const run = await client.beta.threads.runs.create(threadId, { assistant_id: assistantId, model: 'sandbox-claude' }).catch((e: unknown) => e);
    expect(run).toBeInstanceOf(BadRequestError);
    expect((run as BadRequestError).param).toBe('model');
    expect((run as BadRequestError).message).toContain('POST /oaic/v1/threads/{thread_id}/runs');
  });

  it('deletes a thread, after which it is gone', async () => {
    expect(await client.beta.threads.delete(threadId)).toEqual({ id: threadId, object: 'thread.deleted', deleted: true });
    await expect(client.beta.threads.retrieve(threadId)).rejects.toBeInstanceOf(NotFoundError);
    expect(await client.beta.assistants.delete(assistantId)).toMatchObject({ deleted: true });
  });
});
