/**
 * What one key may do: a model list and a deny-list (ids and `*` patterns), its project's two lists, a route
 * list, all made with gatewayctl, and an end date of its own (`--expires`). A model or route refused is each
 * family's 403 naming the rule; a key past its end is a 401 saying it expired on its own, not that it is unknown.
 */
import { KeyCreated, KeyListReply, ProjectList, ProjectView } from '@gateway/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from './support/cli-runner';
import { ask, familyClients, type ChatFamily, type FamilyClients } from './support/chat-matrix';
import { adminClient, baseUrl, bearer, createTenantWithKey, http, openaiClient } from './support/gateway';

const FAMILIES: ChatFamily[] = ['oaic', 'msgc', 'genc'];
const ALLOWED = 'sandbox-gpt';
const REFUSED = 'sandbox-claude';
const FAR = '2099-01-01T00:00:00.000Z';

async function createKey(args: string[]): Promise<KeyCreated> {
  const made = await runCli(['keys', 'create', '--json', ...args]);
  expect(made).toMatchObject({ code: 0, stderr: '' });
  return KeyCreated.parse(JSON.parse(made.stdout));
}

/** A refusal as its family's SDK surfaces it: the HTTP status, the dialect's error kind and its message. */
function refusalOf(family: ChatFamily, error: unknown): { status: unknown; kind: unknown; message: unknown } {
  const { status, error: body, message } = error as { status?: number; error?: Record<string, unknown>; message: string };
  if (family === 'oaic') return { status, kind: body?.type, message: body?.message };
  if (family === 'msgc') {
    const inner = body?.error as Record<string, unknown> | undefined;
    return { status, kind: body?.type === 'error' ? inner?.type : body?.type, message: inner?.message };
  }
  const parsed = JSON.parse(message) as { error: { code: number; status: string; message: string } };
  return { status: parsed.error.code, kind: parsed.error.status, message: parsed.error.message };
}

const PERMISSION_KIND: Record<ChatFamily, string> = { oaic: 'permission_error', msgc: 'permission_error', genc: 'PERMISSION_DENIED' };

/** Asks and expects the family's 403, returning the message its dialect carried. */
async function refusedMessage(clients: FamilyClients, family: ChatFamily, model: string): Promise<unknown> {
  const error = await ask(clients, family, model, { user: 'Hello', stream: false }).then(
    () => new Error(`${family} served ${model}`),
    (e: unknown) => e,
  );
  const refusal = refusalOf(family, error);
  expect(refusal).toMatchObject({ status: 403, kind: PERMISSION_KIND[family] });
  return refusal.message;
}

describe('what a key may do', () => {
  let slug: string;
  let limited: KeyCreated;
  let clients: FamilyClients;

  beforeAll(async () => {
    slug = (await createTenantWithKey({ label: 'keyrules' })).slug;
    limited = await createKey(['--tenant', slug, '--name', 'limited', '--models', `${ALLOWED},sandbox-*-embedding`, '--expires', FAR]);
    clients = familyClients(limited.key);
  });

  it.each(FAMILIES)('%s: serves a listed model and refuses another with 403, naming the model and the list', async (family) => {
    const served = await ask(clients, family, ALLOWED, { user: 'Hello', stream: false });
    expect(served.text).toContain('Hello');
    const refused = await ask(clients, family, REFUSED, { user: 'Hello', stream: false }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 403 });
    expect(String((refused as Error).message)).toContain(`This API key may not use the model '${REFUSED}': its model list is ${ALLOWED}, sandbox-*-embedding.`);
  });

  it('matches a * pattern, and refuses a streamed request before any byte', async () => {
    const embedded = await openaiClient(limited.key).embeddings.create({ model: 'sandbox-azure-embedding', input: 'one' });
    expect(embedded.model).toBe('sandbox-azure-embedding');
    const refused = await http('POST', `${baseUrl()}/oaic/v1/chat/completions`, {
      headers: bearer(limited.key),
      json: { model: REFUSED, stream: true, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { type: 'permission_error', param: 'model' } });
  });

  it('lists the model list and the end date with gatewayctl, and refuses a malformed one naming the flag', async () => {
    const listed = await runCli(['keys', 'list', '--tenant', slug, '--json']);
    const keys = KeyListReply.parse(JSON.parse(listed.stdout).data);
    expect(keys.find((key) => key.id === limited.id)).toMatchObject({ models: [ALLOWED, 'sandbox-*-embedding'], expires_at: FAR });
    const bad = await runCli(['keys', 'create', '--tenant', slug, '--models', 'not a model']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('invalid --models');
    const past = await runCli(['keys', 'create', '--tenant', slug, '--expires', '2020-01-01T00:00:00Z']);
    expect(past.stderr).toContain('invalid --expires: a time in the future');
  });

  it('stops a key at its own end date, with a 401 that says so', async () => {
    // Long enough that the key and its first answer come before it on a busy machine.
    const ends = new Date(Date.now() + 10_000).toISOString();
    const ending = await adminClient().createKey({ tenant: slug, name: 'ending', expiresAt: ends });
    const models = (key: string) => http('GET', `${baseUrl()}/oaic/v1/models`, { headers: bearer(key) });
    expect((await models(ending.key)).status).toBe(200);
    await sleep(Math.max(0, Date.parse(ends) - Date.now()) + 200);
    const after = await models(ending.key);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: { code: 'invalid_api_key', message: `This API key expired at ${ends}: its own expiry.` } });
  }, 30_000);
});

describe("a key's deny-list, its project's lists and its route list", () => {
  let slug: string;
  let denying: KeyCreated;
  let inProject: KeyCreated;
  let routed: KeyCreated;

  beforeAll(async () => {
    slug = (await createTenantWithKey({ label: 'keyrules2' })).slug;
    denying = await createKey(['--tenant', slug, '--name', 'denying', '--models', 'sandbox-*', '--deny-models', 'sandbox-claude*,sandbox-x']);
    const made = await runCli([
      'projects',
      'create',
      '--json',
      '--tenant',
      slug,
      'search',
      '--models',
      'sandbox-gpt,sandbox-claude',
      '--deny-models',
      'sandbox-claude',
    ]);
    expect(made).toMatchObject({ code: 0, stderr: '' });
    expect(ProjectView.parse(JSON.parse(made.stdout))).toMatchObject({
      name: 'search',
      models: ['sandbox-gpt', 'sandbox-claude'],
      deny_models: ['sandbox-claude'],
    });
    inProject = await createKey(['--tenant', slug, '--name', 'searcher', '--project', 'search']);
    routed = await createKey(['--tenant', slug, '--name', 'embedder', '--routes', 'oaic.embeddings,msgc']);
  });

  it.each(FAMILIES)("%s: refuses a model on the key's deny-list though its model list admits it, naming the deny-list", async (family) => {
    const clients = familyClients(denying.key);
    expect((await ask(clients, family, ALLOWED, { user: 'Hello', stream: false })).text).toContain('Hello');
    expect(await refusedMessage(clients, family, REFUSED)).toBe(`The model '${REFUSED}' is denied by this API key's deny-list (sandbox-claude*).`);
  });

  it.each(FAMILIES)("%s: binds a key by its project's model list and deny-list, naming the project", async (family) => {
    const clients = familyClients(inProject.key);
    expect((await ask(clients, family, ALLOWED, { user: 'Hello', stream: false })).text).toContain('Hello');
    expect(await refusedMessage(clients, family, 'sandbox-gemini')).toBe(
      `The model 'sandbox-gemini' is not allowed for this API key: its project "search" allows only sandbox-gpt, sandbox-claude.`,
    );
    expect(await refusedMessage(clients, family, REFUSED)).toBe(
      `The model '${REFUSED}' is denied by the deny-list of this API key's project "search" (sandbox-claude).`,
    );
  });

  it('lists only the models a key may use on GET /oaic/v1/models', async () => {
    const listed = async (key: string) => {
      const ids: string[] = [];
      for await (const model of openaiClient(key).models.list()) ids.push(model.id);
      return ids;
    };
    expect(await listed(inProject.key)).toEqual([ALLOWED]);
    const denied = await listed(denying.key);
    expect(denied).toContain(ALLOWED);
    expect(denied.filter((id) => !id.startsWith('sandbox-') || id.startsWith('sandbox-claude'))).toEqual([]);
    const paged = await http('GET', `${baseUrl()}/oaic/v1/models?limit=100`, { headers: bearer(inProject.key) });
    expect(paged.body).toMatchObject({ data: [{ id: ALLOWED }], has_more: false });
  });

  it.each([
    ['oaic', 'POST /oaic/v1/chat/completions (route oaic.chat)'],
    ['genc', 'POST /genc/v1beta/models/{model}:generateContent (route genc.generate)'],
  ] as const)('%s: refuses a route outside the key route list at the edge, naming the route and the list', async (family, named) => {
    // An unknown model would be a 404 from the chat service: the 403 shows nothing got that far.
    const message = await refusedMessage(familyClients(routed.key), family, 'no-such-model');
    expect(message).toBe(`This API key may not call ${named}: its route list is oaic.embeddings, msgc.`);
  });

  it('serves the routes and families of the route list', async () => {
    const embedded = await openaiClient(routed.key).embeddings.create({ model: 'sandbox-azure-embedding', input: 'one' });
    expect(embedded.data).toHaveLength(1);
    expect((await ask(familyClients(routed.key), 'msgc', ALLOWED, { user: 'Hello', stream: false })).text).toContain('Hello');
    const models = await http('GET', `${baseUrl()}/oaic/v1/models`, { headers: bearer(routed.key) });
    expect(models).toMatchObject({ status: 403, body: { error: { type: 'permission_error', message: expect.stringContaining('(route oaic.models.list)') } } });
  });

  it('shows the lists with gatewayctl and the admin API, and refuses a route the table lacks naming the flag', async () => {
    const keys = KeyListReply.parse(JSON.parse((await runCli(['keys', 'list', '--tenant', slug, '--json'])).stdout).data);
    expect(keys.find((key) => key.id === denying.id)).toMatchObject({ models: ['sandbox-*'], deny_models: ['sandbox-claude*', 'sandbox-x'], routes: [] });
    expect(keys.find((key) => key.id === routed.id)).toMatchObject({ deny_models: [], routes: ['oaic.embeddings', 'msgc'] });
    const projects = ProjectList.parse(JSON.parse((await runCli(['projects', 'list', '--tenant', slug, '--json'])).stdout)).data;
    expect(projects.find((project) => project.name === 'search')).toMatchObject({
      keys: 1,
      models: ['sandbox-gpt', 'sandbox-claude'],
      deny_models: ['sandbox-claude'],
    });
    const human = await runCli(['projects', 'list', '--tenant', slug]);
    expect(human.stdout).toMatch(/search\s+1\s+sandbox-gpt,sandbox-claude\s+sandbox-claude/);

    const typo = await runCli(['keys', 'create', '--tenant', slug, '--routes', 'oaic.embedings']);
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toContain('invalid --routes: names no route of the route table');

    const admin = adminClient();
    const viaApi = await admin.createProject({ tenant: slug, name: 'api-made', denyModels: ['sandbox-gemini'] });
    expect(viaApi).toMatchObject({ name: 'api-made', models: [], deny_models: ['sandbox-gemini'] });
    const apiKey = await admin.createKey({ tenant: slug, project: 'api-made', routes: ['genc'], denyModels: ['sandbox-gpt'] });
    const clients = familyClients(apiKey.key);
    expect((await ask(clients, 'genc', REFUSED, { user: 'Hello', stream: false })).text).toContain('Hello');
    expect(await refusedMessage(clients, 'genc', 'sandbox-gemini')).toBe(
      `The model 'sandbox-gemini' is denied by the deny-list of this API key's project "api-made" (sandbox-gemini).`,
    );
    expect(await refusedMessage(clients, 'msgc', ALLOWED)).toBe(
      'This API key may not call POST /msgc/v1/messages (route msgc.messages): its route list is genc.',
    );
  });
});
