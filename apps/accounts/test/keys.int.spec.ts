import {
  GatewayError,
  KeyCreated,
  KeyListReply,
  KeyResolveReply,
  KeyView,
  ProjectListReply,
  ProjectView,
  SubscriptionView,
  SUBJECTS,
  TenantView,
  ApplyResult,
  DEFAULT_FEATURE_CONTROLS,
} from '@gateway/contracts';
import { createHash } from 'node:crypto';
import { createPrismaClient } from '@gateway/db';
import { catalogConfig, startAccountsHarness, type AccountsHarness } from './accounts.harness';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const S = SUBJECTS.accounts;

describe('accounts keys, tenants and subscriptions over NATS', () => {
  let h: AccountsHarness;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error as GatewayError,
    );
  const resolve = (key: string) => h.bus.request(S.keys.resolve, { keyHash: sha256(key) }, KeyResolveReply);

  beforeAll(async () => {
    h = await startAccountsHarness('accounts_keys');
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  });

  it('creates a tenant once and refuses a second with the same slug', async () => {
    const tenant = await h.bus.request(S.tenants.create, { slug: 'acme', name: 'Acme Inc' }, TenantView);
    expect(tenant).toMatchObject({ slug: 'acme', name: 'Acme Inc', billing: 'payg', plan: null, expires: null, featureControls: DEFAULT_FEATURE_CONTROLS });
    await expect(h.bus.request(S.tenants.get, { slug: 'acme' }, TenantView)).resolves.toEqual(tenant);
    const duplicate = await failure(h.bus.request(S.tenants.create, { slug: 'acme' }, TenantView));
    expect(duplicate).toMatchObject({ code: 'invalid_request', param: 'slug', message: 'tenant "acme" already exists' });
    expect(await failure(h.bus.request(S.tenants.get, { slug: 'nobody' }, TenantView))).toMatchObject({ code: 'not_found', param: 'slug' });
  });

  it('refuses a plan tenant whose plan does not exist', async () => {
    const error = await failure(h.bus.request(S.tenants.create, { slug: 'planless', billing: 'plan', plan: 'gold' }, TenantView));
    expect(error).toMatchObject({ code: 'invalid_request', param: 'plan' });
    expect((error as GatewayError).message).toContain('gold');
  });

  it('issues, resolves, lists, regenerates and revokes a key, broadcasting each change', async () => {
    const created = await h.bus.request(S.keys.create, { tenant: 'acme', name: 'ci' }, KeyCreated);
    expect(created.key).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    expect(created).toMatchObject({ kind: 'payg', tenant: 'acme', masked: `sk-${created.key.slice(3, 7)}…${created.key.slice(-4)}` });
    await h.nextEvent((e) => e.keyHashes.includes(sha256(created.key)));

    const context = await resolve(created.key);
    expect(context).toMatchObject({ keyId: created.id, keyName: 'ci', kind: 'payg', tenantSlug: 'acme', billing: 'payg', expiresAt: null });
    expect(context!.featureControls).toEqual(DEFAULT_FEATURE_CONTROLS);
    await expect(resolve('sk-not-a-real-key')).resolves.toBeNull();

    const listed = await h.bus.request(S.keys.list, { tenant: 'acme' }, KeyListReply);
    expect(listed).toEqual([expect.objectContaining({ id: created.id, name: 'ci', masked: created.masked, status: 'active', tenant: 'acme' })]);
    const listedText = JSON.stringify(listed);
    expect(listedText).not.toContain(created.key);
    expect(listedText).not.toContain(sha256(created.key));

    const rotated = await h.bus.request(S.keys.regenerate, { id: created.id }, KeyCreated);
    expect(rotated.id).toBe(created.id);
    expect(rotated.key).not.toBe(created.key);
    const rotation = await h.nextEvent((e) => e.keyHashes.includes(sha256(rotated.key)));
    expect(rotation.keyHashes).toEqual([sha256(created.key), sha256(rotated.key)]);
    await expect(resolve(created.key)).resolves.toBeNull();
    await expect(resolve(rotated.key)).resolves.toMatchObject({ keyId: created.id });

    const before = h.events.length;
    const revoked = await h.bus.request(S.keys.revoke, { id: created.id }, KeyView);
    expect(revoked).toMatchObject({ id: created.id, status: 'revoked', masked: rotated.masked });
    await h.nextEvent((e) => h.events.indexOf(e) >= before && e.keyHashes.includes(sha256(rotated.key)));
    await expect(resolve(rotated.key)).resolves.toBeNull();
    expect(await failure(h.bus.request(S.keys.regenerate, { id: created.id }, KeyCreated))).toMatchObject({ code: 'invalid_request', param: 'id' });
  });

  it("keeps a key's model list and its own expiry, and resolves an expired key saying what ended it", async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const created = await h.bus.request(
      S.keys.create,
      { tenant: 'acme', name: 'embeddings', models: ['sandbox-embedding', 'sandbox-*-embed'], expiresAt: soon },
      KeyCreated,
    );
    const context = await resolve(created.key);
    expect(context).toMatchObject({ models: ['sandbox-embedding', 'sandbox-*-embed'], expiresAt: soon, expiredBy: 'key' });
    const listed = await h.bus.request(S.keys.list, { tenant: 'acme' }, KeyListReply);
    expect(listed.find((key) => key.id === created.id)).toMatchObject({ models: ['sandbox-embedding', 'sandbox-*-embed'], expires_at: soon });

    const past = await failure(h.bus.request(S.keys.create, { tenant: 'acme', expiresAt: '2020-01-01T00:00:00Z' }, KeyCreated));
    expect(past).toMatchObject({ code: 'invalid_request', param: 'expiresAt' });
    const pattern = await failure(h.bus.request(S.keys.create, { tenant: 'acme', models: ['no spaces'] }, KeyCreated));
    expect(pattern).toMatchObject({ code: 'invalid_request', param: 'models[0]' });

    // A key whose own end has passed still resolves, so the edge can tell the client which rule ended it.
    const prisma = createPrismaClient(h.db.url, 1);
    try {
      const ended = new Date(Date.now() - 1000);
      await prisma.apiKey.update({ where: { id: created.id }, data: { expiresAt: ended } });
      await expect(resolve(created.key)).resolves.toMatchObject({ keyId: created.id, expiresAt: ended.toISOString(), expiredBy: 'key' });
    } finally {
      await prisma.$disconnect();
    }
  });

  it("keeps a key's deny-list and route list, and its project's model lists, and resolves them all", async () => {
    await h.bus.request(S.tenants.create, { slug: 'rules-co' }, TenantView);
    const project = await h.bus.request(
      S.projects.create,
      { tenant: 'rules-co', name: 'search', models: ['sandbox-*'], denyModels: ['sandbox-claude'] },
      ProjectView,
    );
    expect(project).toMatchObject({ name: 'search', models: ['sandbox-*'], deny_models: ['sandbox-claude'] });
    const created = await h.bus.request(
      S.keys.create,
      { tenant: 'rules-co', project: 'search', denyModels: ['sandbox-gpt-*'], routes: ['oaic.embeddings', 'msgc'] },
      KeyCreated,
    );
    await expect(resolve(created.key)).resolves.toMatchObject({
      models: [],
      denyModels: ['sandbox-gpt-*'],
      routes: ['oaic.embeddings', 'msgc'],
      project: { name: 'search', models: ['sandbox-*'], denyModels: ['sandbox-claude'] },
    });
    const listed = await h.bus.request(S.keys.list, { tenant: 'rules-co' }, KeyListReply);
    expect(listed).toMatchObject([{ id: created.id, deny_models: ['sandbox-gpt-*'], routes: ['oaic.embeddings', 'msgc'] }]);
    const projects = await h.bus.request(S.projects.list, { tenant: 'rules-co' }, ProjectListReply);
    expect(projects.map((p) => [p.name, p.models, p.deny_models])).toEqual([
      ['default', [], []],
      ['search', ['sandbox-*'], ['sandbox-claude']],
    ]);

    const typo = await failure(h.bus.request(S.keys.create, { tenant: 'rules-co', routes: ['oaic.embedings'] }, KeyCreated));
    expect(typo).toMatchObject({ code: 'invalid_request', param: 'routes[0]' });
    const badProject = await failure(h.bus.request(S.projects.create, { tenant: 'rules-co', name: 'bad', denyModels: ['no spaces'] }, ProjectView));
    expect(badProject).toMatchObject({ code: 'invalid_request', param: 'denyModels[0]' });
  });

  it('answers not_found naming an unknown tenant or key', async () => {
    const noTenant = await failure(h.bus.request(S.keys.create, { tenant: 'ghost' }, KeyCreated));
    expect(noTenant).toMatchObject({ code: 'not_found', param: 'tenant' });
    expect((noTenant as GatewayError).message).toContain('ghost');
    const id = '00000000-0000-4000-8000-000000000000';
    expect(await failure(h.bus.request(S.keys.revoke, { id }, KeyView))).toMatchObject({ code: 'not_found', param: 'id' });
    expect(await failure(h.bus.request(S.keys.resolve, { keyHash: 'short' }, KeyResolveReply))).toMatchObject({ code: 'invalid_request', param: 'keyHash' });
  });

  it('stops a subscription key at its expiry and broadcasts the tenant on every change', async () => {
    await h.bus.request(S.config.apply, { plans: catalogConfig().plans }, ApplyResult);
    const future = new Date(Date.now() + 86400_000).toISOString();
    const tenant = await h.bus.request(S.tenants.create, { slug: 'initech', billing: 'plan', plan: 'starter', expires: future }, TenantView);
    expect(tenant).toMatchObject({ billing: 'plan', plan: 'starter', expires: future });
    const key = await h.bus.request(S.keys.create, { tenant: 'initech' }, KeyCreated);
    expect(key.key).toMatch(/^sk-plan-[0-9A-Za-z]{48}$/);
    await expect(resolve(key.key)).resolves.toMatchObject({ kind: 'plan', expiresAt: future, tenantId: tenant.id });

    const past = new Date(Date.now() - 60_000).toISOString();
    const view = await h.bus.request(S.subscriptions.set, { tenant: 'initech', expires: past }, SubscriptionView);
    expect(view).toEqual({ tenant: 'initech', kind: 'plan', plan: 'starter', expires: past });
    await h.nextEvent((e) => e.tenantIds.includes(tenant.id));
    // Past its end the key still resolves, so the edge can say the subscription ended it.
    await expect(resolve(key.key)).resolves.toMatchObject({ expiresAt: past, expiredBy: 'subscription' });

    const renewed = new Date(Date.now() + 7 * 86400_000).toISOString();
    await h.bus.request(S.subscriptions.set, { tenant: 'initech', expires: renewed }, SubscriptionView);
    await expect(resolve(key.key)).resolves.toMatchObject({ expiresAt: renewed });
    expect(h.events.filter((e) => e.tenantIds.includes(tenant.id))).toHaveLength(2);
  });

  it('binds a pay-as-you-go tenant keys to a subscription expiry an operator sets', async () => {
    const tenant = await h.bus.request(S.tenants.create, { slug: 'payg-expiring' }, TenantView);
    const key = await h.bus.request(S.keys.create, { tenant: 'payg-expiring' }, KeyCreated);
    await expect(resolve(key.key)).resolves.toMatchObject({ kind: 'payg', expiresAt: null });
    const past = new Date(Date.now() - 1000).toISOString();
    await expect(h.bus.request(S.subscriptions.set, { tenant: 'payg-expiring', expires: past }, SubscriptionView)).resolves.toEqual({
      tenant: 'payg-expiring',
      kind: 'payg',
      plan: null,
      expires: past,
    });
    await h.nextEvent((e) => e.tenantIds.includes(tenant.id));
    await expect(resolve(key.key)).resolves.toMatchObject({ expiresAt: past, expiredBy: 'subscription' });
    const dated = await h.bus.request(S.tenants.create, { slug: 'payg-dated', expires: '2040-01-01T00:00:00.000Z' }, TenantView);
    expect(dated).toMatchObject({ billing: 'payg', plan: null, expires: '2040-01-01T00:00:00.000Z' });
  });

  it('gives custom tenants sk-custom- keys', async () => {
    await h.bus.request(S.tenants.create, { slug: 'umbrella', billing: 'custom' }, TenantView);
    const key = await h.bus.request(S.keys.create, { tenant: 'umbrella' }, KeyCreated);
    expect(key).toMatchObject({ kind: 'custom', masked: expect.stringMatching(/^sk-custom-[0-9A-Za-z]{4}…[0-9A-Za-z]{4}$/) });
    await expect(resolve(key.key)).resolves.toMatchObject({ kind: 'custom', billing: 'custom', expiresAt: null });
  });

  it('puts a key in the default project unless told, and keeps projects apart per tenant', async () => {
    await h.bus.request(S.tenants.create, { slug: 'projects-co' }, TenantView);
    await h.bus.request(S.tenants.create, { slug: 'projects-other' }, TenantView);
    await expect(h.bus.request(S.projects.list, { tenant: 'projects-co' }, ProjectListReply)).resolves.toEqual([
      { name: 'default', tenant: 'projects-co', keys: 0, models: [], deny_models: [], created_at: expect.any(String) },
    ]);
    await expect(h.bus.request(S.projects.create, { tenant: 'projects-co', name: 'search' }, ProjectView)).resolves.toMatchObject({ name: 'search', keys: 0 });
    const duplicate = await failure(h.bus.request(S.projects.create, { tenant: 'projects-co', name: 'search' }, ProjectView));
    expect(duplicate).toMatchObject({ code: 'invalid_request', param: 'name', message: 'tenant "projects-co" already has a project "search"' });
    expect(await failure(h.bus.request(S.projects.create, { tenant: 'projects-co', name: 'Not A Name' }, ProjectView))).toMatchObject({
      code: 'invalid_request',
      param: 'name',
    });

    const plain = await h.bus.request(S.keys.create, { tenant: 'projects-co', name: 'web' }, KeyCreated);
    const search = await h.bus.request(S.keys.create, { tenant: 'projects-co', name: 'indexer', project: 'search' }, KeyCreated);
    expect([plain.project, search.project]).toEqual(['default', 'search']);
    const missing = await failure(h.bus.request(S.keys.create, { tenant: 'projects-other', project: 'search' }, KeyCreated));
    expect(missing).toMatchObject({ code: 'not_found', param: 'project', message: 'tenant "projects-other" has no project "search"; create it first' });

    const keys = await h.bus.request(S.keys.list, { tenant: 'projects-co' }, KeyListReply);
    expect(keys.map((k) => [k.name, k.project])).toEqual([
      ['web', 'default'],
      ['indexer', 'search'],
    ]);
    const projects = await h.bus.request(S.projects.list, { tenant: 'projects-co' }, ProjectListReply);
    expect(projects.map((p) => [p.name, p.keys])).toEqual([
      ['default', 1],
      ['search', 1],
    ]);
    await expect(h.bus.request(S.projects.list, { tenant: 'projects-other' }, ProjectListReply)).resolves.toMatchObject([{ name: 'default', keys: 0 }]);
  });
});
