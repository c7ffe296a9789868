import {
  ApplyResult,
  BalanceView,
  CatalogChannelsReply,
  GatewayError,
  KeyCreated,
  KeyResolveReply,
  SUBJECTS,
  TenantView,
  VisibleModelsReply,
} from '@gateway/contracts';
import { createPrismaClient, type PrismaClient } from '@gateway/db';
import { createHash } from 'node:crypto';
import { catalogConfig, startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('accounts catalog, config apply and balance over NATS', () => {
  let h: AccountsHarness;
  let prisma: PrismaClient;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error as GatewayError,
    );
  const apply = (file: unknown) => h.bus.request(S.config.apply, file, ApplyResult);
  const tenantId = async (slug: string) => (await h.bus.request(S.tenants.get, { slug }, TenantView)).id;
  const visibleIds = async (slug: string) => (await h.bus.request(S.models.visible, { tenantId: await tenantId(slug) }, VisibleModelsReply)).map((m) => m.id);

  beforeAll(async () => {
    process.env.ACCOUNTS_SPEC_SANDBOX_KEY = 'sandbox-secret';
    h = await startAccountsHarness('accounts_catalog');
    prisma = createPrismaClient(h.db.url, 2);
  }, 60_000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await h?.stop();
    delete process.env.ACCOUNTS_SPEC_SANDBOX_KEY;
  });

  it('applies a file, then applying it again changes nothing', async () => {
    const first = await apply(catalogConfig());
    expect(first).toMatchObject({ created: 7, updated: 0, unchanged: 0 });
    expect(first.changes).toEqual(expect.arrayContaining(['provider sandbox: created', 'model acme-private: created', 'tenant acme: created']));
    const ids = [await tenantId('acme'), await tenantId('globex')];
    const event = await h.nextEvent((e) => e.catalog);
    expect([...event.tenantIds].sort()).toEqual([...ids].sort());

    const eventsBefore = h.events.length;
    await expect(apply(catalogConfig())).resolves.toEqual({ created: 0, updated: 0, unchanged: 7, changes: [] });
    expect(await prisma.channel.count()).toBe(4);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.events.length).toBe(eventsBefore);

    const acme = await h.bus.request(S.tenants.get, { slug: 'acme' }, TenantView);
    expect(acme).toMatchObject({ name: 'Acme', billing: 'plan', plan: 'starter', featureControls: { mediaAuthorizedAssets: true, chat: true } });
    expect(new Date(acme.expires!).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);
  });

  it('shows each tenant the public models plus only its own private ones, newest first', async () => {
    await expect(visibleIds('acme')).resolves.toEqual(['sandbox-embed', 'acme-private', 'sandbox-gpt']);
    await expect(visibleIds('globex')).resolves.toEqual(['sandbox-embed', 'sandbox-gpt']);
    const listed = await h.bus.request(S.models.visible, { tenantId: await tenantId('globex') }, VisibleModelsReply);
    expect(listed[1]).toEqual({ id: 'sandbox-gpt', displayName: 'Sandbox GPT', capability: 'chat', createdAt: '2025-01-01T00:00:00.000Z' });
  });

  it('gives the chat router a model channels by priority with the provider secret resolved', async () => {
    const routed = await h.bus.request(S.catalog.channels, { modelId: 'acme-private' }, CatalogChannelsReply);
    expect(routed.model).toEqual({
      id: 'acme-private',
      capability: 'chat',
      defaultMaxTokens: 4096,
      prices: { inputPerMTok: '0', outputPerMTok: '0', perImage: '0', perSecond: '0', perTask: '0' },
    });
    expect(routed.channels.map((c) => [c.upstreamModel, c.priority, c.weight])).toEqual([
      ['gpt-b', 1, 3],
      ['gpt-a', 10, 1],
    ]);
    expect(routed.channels[1]).toMatchObject({ providerId: 'sandbox', protocol: 'openai', baseUrl: 'http://127.0.0.1:9100/v1', apiKey: 'sandbox-secret' });
    const gpt = await h.bus.request(S.catalog.channels, { modelId: 'sandbox-gpt' }, CatalogChannelsReply);
    expect(gpt.model).toMatchObject({ defaultMaxTokens: 2048, prices: { inputPerMTok: '500000', outputPerMTok: '1500000' } });
    expect(await failure(h.bus.request(S.catalog.channels, { modelId: 'ghost' }, CatalogChannelsReply))).toMatchObject({ code: 'model_not_found' });
  });

  it('replaces a model channel set and grants exactly, reporting what changed', async () => {
    const file = catalogConfig();
    const models = file.models!;
    models[2] = { ...models[2]!, channels: [{ provider: 'sandbox', upstreamModel: 'gpt-c' }] } as (typeof models)[number];
    file.tenants = [
      { slug: 'acme', name: 'Acme', billing: 'plan', plan: 'starter', models: [], featureControls: {} },
      { slug: 'globex', models: ['acme-private'] },
    ];
    const result = await apply(file);
    expect(result).toMatchObject({ created: 0, updated: 3, unchanged: 4 });
    expect(result.changes).toEqual([
      'model acme-private: updated (+channel sandbox/gpt-c, -channel sandbox/gpt-a, -channel sandbox/gpt-b)',
      'tenant acme: updated (featureControls, -model acme-private)',
      'tenant globex: updated (+model acme-private)',
    ]);
    const routed = await h.bus.request(S.catalog.channels, { modelId: 'acme-private' }, CatalogChannelsReply);
    expect(routed.channels.map((c) => c.upstreamModel)).toEqual(['gpt-c']);
    await expect(visibleIds('acme')).resolves.toEqual(['sandbox-embed', 'sandbox-gpt']);
    await expect(visibleIds('globex')).resolves.toEqual(['sandbox-embed', 'acme-private', 'sandbox-gpt']);
  });

  it('refuses a bad reference naming its path and writes nothing', async () => {
    const file = catalogConfig({ models: [{ id: 'orphan', displayName: 'Orphan', capability: 'chat', provider: 'nowhere' }] });
    const error = await failure(apply(file));
    expect(error).toMatchObject({ code: 'invalid_request', param: 'models[0].channels[0].provider' });
    expect((error as GatewayError).message).toContain('nowhere');
    const unknownGrant = await failure(apply({ tenants: [{ slug: 'globex', models: ['ghost-model'] }] }));
    expect(unknownGrant).toMatchObject({ code: 'invalid_request', param: 'tenants[0].models[0]' });
    expect(
      await failure(apply({ models: [{ id: 'x', displayName: 'X', capability: 'chat', provider: 'sandbox', prices: { inputPerMTok: 'lots' } }] })),
    ).toMatchObject({
      code: 'invalid_request',
      param: 'models[0].prices.inputPerMTok',
    });
    expect(await prisma.model.count({ where: { id: { in: ['orphan', 'x'] } } })).toBe(0);
  });

  it('runs concurrent applies one after another, each against the state the previous one left', async () => {
    const slugs = Array.from({ length: 6 }, (_, i) => `parallel-${i}`);
    const results = await Promise.all(slugs.map((slug) => apply({ ...catalogConfig(), tenants: [{ slug, models: ['acme-private'] }] })));
    // The first to run puts back the channels an earlier test replaced; the rest find nothing left to do there.
    const restoring = results.filter((r) => r.updated === 1);
    expect(restoring).toHaveLength(1);
    expect(restoring[0]).toMatchObject({ created: 1, unchanged: 4 });
    expect(restoring[0]!.changes).toContain('model acme-private: updated (+channel sandbox/gpt-a, +channel sandbox/gpt-b, -channel sandbox/gpt-c)');
    results
      .filter((r) => r.updated === 0)
      .forEach((r) => expect(r).toMatchObject({ created: 1, unchanged: 5, changes: [expect.stringMatching(/^tenant parallel-\d: created$/)] }));
    expect(await prisma.tenantModel.count({ where: { tenant: { slug: { in: slugs } } } })).toBe(6);
  });

  it('keys a tenant whose feature controls came from the file', async () => {
    await apply({ tenants: [{ slug: 'hooli', billing: 'custom', featureControls: { mediaAuthorizedAssets: true, beta: true } }] });
    const key = await h.bus.request(S.keys.create, { tenant: 'hooli' }, KeyCreated);
    const context = await h.bus.request(S.keys.resolve, { keyHash: sha256(key.key) }, KeyResolveReply);
    expect(context!.featureControls).toEqual({ mediaAuthorizedAssets: true, chat: true, media: true, music: true, beta: true });
  });

  it('tops up a balance through the ledger and shows the sum', async () => {
    await expect(h.bus.request(S.balance.show, { tenant: 'globex' }, BalanceView)).resolves.toEqual({
      tenant: 'globex',
      balance: '0.000000',
      balanceMicros: '0',
    });
    await h.bus.request(S.balance.topup, { tenant: 'globex', amountMicros: '10500000' }, BalanceView);
    const after = await h.bus.request(S.balance.topup, { tenant: 'globex', amountMicros: '1' }, BalanceView);
    expect(after).toEqual({ tenant: 'globex', balance: '10.500001', balanceMicros: '10500001' });
    await expect(h.bus.request(S.balance.show, { tenant: 'globex' }, BalanceView)).resolves.toEqual(after);
    const ledger = await prisma.ledgerEntry.findMany({ where: { tenant: { slug: 'globex' } }, orderBy: { id: 'asc' } });
    expect(ledger.map((row) => [row.kind, row.amountMicros])).toEqual([
      ['topup', 10_500_000n],
      ['topup', 1n],
    ]);
    expect(await failure(h.bus.request(S.balance.topup, { tenant: 'globex', amountMicros: '0' }, BalanceView))).toMatchObject({ code: 'invalid_request' });
    expect(await failure(h.bus.request(S.balance.show, { tenant: 'ghost' }, BalanceView))).toMatchObject({ code: 'not_found', param: 'tenant' });
  });
});
