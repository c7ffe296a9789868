/**
 * What one key may do: a model list (ids and `*` patterns) made with `gatewayctl keys create --models`, and an
 * end date of its own (`--expires`). A model outside the list is each family's 403 naming the model and the
 * list; a key past its end is a 401 saying it expired on its own, not that it is unknown.
 */
import { KeyCreated, KeyListReply } from '@gateway/contracts';
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
