import { GatewayError, SUBJECTS, type CatalogChannelsReply, type VisibleModel } from '@gateway/contracts';
import { randomBytes } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { connectNats } from '../nats/connect';
import { encodeReply } from '../nats/codec';
import { NatsBus } from '../nats/nats-bus';
import { CatalogCache } from './catalog-cache';

const visible: VisibleModel[] = [
  { id: 'gpt', displayName: 'GPT', capability: 'chat', createdAt: '2025-01-01T00:00:00Z' },
  { id: 'mod', displayName: 'Mod', capability: 'moderation', createdAt: '2025-01-01T00:00:00Z' },
];

function channels(modelId: string): CatalogChannelsReply {
  const prices = { inputPerMTok: '0', outputPerMTok: '0', perImage: '0', perSecond: '0', perTask: '0' };
  return {
    model: { id: modelId, capability: 'chat', defaultMaxTokens: 4096, prices },
    channels: [
      {
        id: `ch-${modelId}`,
        providerId: 'p',
        protocol: 'openai',
        baseUrl: 'http://127.0.0.1:1/v1',
        apiKey: null,
        upstreamModel: modelId,
        priority: 0,
        weight: 1,
        nativeBatch: false,
        assistants: false,
      },
    ],
  };
}

describe('CatalogCache against accounts subjects on a real NATS server', () => {
  const prefix = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;
  const calls = { visible: 0, channels: 0 };
  let connection: NatsConnection;
  let catalog: CatalogCache;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'catalog-spec');
    connection.subscribe(prefix + SUBJECTS.accounts.models.visible, {
      callback: (_e, msg) => {
        calls.visible++;
        msg.respond(encodeReply({ ok: true, data: visible }));
      },
    });
    connection.subscribe(prefix + SUBJECTS.accounts.catalog.channels, {
      callback: (_e, msg) => {
        calls.channels++;
        const { modelId } = JSON.parse(new TextDecoder().decode(msg.data)) as { modelId: string };
        msg.respond(encodeReply({ ok: true, data: channels(modelId) }));
      },
    });
    catalog = new CatalogCache(new NatsBus(connection, prefix), 300_000);
  });

  afterAll(async () => {
    await connection.drain();
  });

  const TENANT = { tenantId: 'tenant-1' };

  beforeEach(() => {
    catalog.invalidate({ keyHashes: [], tenantIds: [], catalog: true, sessions: [] });
    calls.visible = 0;
    calls.channels = 0;
  });

  it("refuses a model outside the key's model list before asking accounts, naming the list", async () => {
    const caller = { tenantId: 'tenant-1', models: ['mod', 'g*t'] };
    await expect(catalog.route(caller, 'gpt', 'chat')).resolves.toMatchObject({ channels: [expect.objectContaining({ id: 'ch-gpt' })] });
    const refused = await catalog.route({ tenantId: 'tenant-1', models: ['mod'] }, 'gpt', 'chat', { param: 'model_name' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'permission_denied',
      param: 'model_name',
      message: "This API key may not use the model 'gpt': its model list is mod.",
    });
  });

  it("refuses a model on the key's deny-list or outside its project's lists, naming the rule", async () => {
    const denied = await catalog.route({ tenantId: 'tenant-1', models: ['g*'], denyModels: ['gp*'] }, 'gpt', 'chat').catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: 'permission_denied', param: 'model', message: "The model 'gpt' is denied by this API key's deny-list (gp*)." });
    const project = { name: 'search', models: ['mod'], denyModels: [] };
    const outside = await catalog.route({ tenantId: 'tenant-1', project }, 'gpt', 'chat').catch((e: unknown) => e);
    expect(outside).toMatchObject({
      code: 'permission_denied',
      message: `The model 'gpt' is not allowed for this API key: its project "search" allows only mod.`,
    });
    expect(calls.visible).toBe(0);
    await expect(catalog.route({ tenantId: 'tenant-1', project: { ...project, models: ['gpt'] } }, 'gpt', 'chat')).resolves.toBeDefined();
  });

  it('asks accounts once, then serves from memory, also under concurrent misses', async () => {
    const routes = await Promise.all([1, 2, 3].map(() => catalog.route(TENANT, 'gpt', 'chat')));
    expect(routes[0]!.channels[0]!.id).toBe('ch-gpt');
    await catalog.route(TENANT, 'gpt', 'chat');
    expect(calls).toEqual({ visible: 1, channels: 1 });
  });

  it('refuses a model the tenant cannot see with model_not_found, and one of the wrong kind as invalid', async () => {
    await expect(catalog.route(TENANT, 'hidden', 'chat')).rejects.toMatchObject({ code: 'model_not_found', param: 'model' });
    const wrongKind = await catalog.route(TENANT, 'mod', 'chat').catch((e: unknown) => e);
    expect(wrongKind).toBeInstanceOf(GatewayError);
    expect(wrongKind).toMatchObject({ code: 'invalid_request', param: 'model' });
    expect(calls.channels).toBe(0);
  });

  it('picks the tenant’s first model of a capability when the request names none', async () => {
    await expect(catalog.defaultModel('tenant-1', 'moderation')).resolves.toBe('mod');
    await expect(catalog.defaultModel('tenant-1', 'tts')).rejects.toMatchObject({ code: 'model_not_found' });
  });

  it('drops a tenant’s visibility on a tenant invalidation and everything on a catalog one', async () => {
    await catalog.route(TENANT, 'gpt', 'chat');
    catalog.invalidate({ keyHashes: [], tenantIds: ['tenant-1'], catalog: false, sessions: [] });
    await catalog.route(TENANT, 'gpt', 'chat');
    expect(calls).toEqual({ visible: 2, channels: 1 });
    catalog.invalidate({ keyHashes: [], tenantIds: [], catalog: true, sessions: [] });
    await catalog.route(TENANT, 'gpt', 'chat');
    expect(calls).toEqual({ visible: 3, channels: 2 });
  });

  it('forgets everything when the NATS connection comes back, since invalidations sent meanwhile are lost', async () => {
    catalog.watch();
    try {
      await catalog.route(TENANT, 'gpt', 'chat');
      expect(calls).toEqual({ visible: 1, channels: 1 });
      const back = (async () => {
        for await (const status of connection.status()) if (status.type === 'reconnect') return;
      })();
      await connection.reconnect();
      await back;
      await catalog.route(TENANT, 'gpt', 'chat');
      expect(calls).toEqual({ visible: 2, channels: 2 });
    } finally {
      catalog.close();
    }
  });
});
