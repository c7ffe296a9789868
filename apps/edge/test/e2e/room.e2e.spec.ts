/** Room-integration endpoints (spec 4.14) with a developer API key. */
import { z } from 'zod';
import { bearer, createTenantWithKey, e2eEnv, http, type TenantWithKey } from './support/gateway';

const RoomModels = z.object({
  success: z.literal(true),
  data: z.object({ models: z.array(z.object({ id: z.string() }).passthrough()), total: z.number().int() }),
});
const FeatureControls = z.record(z.string(), z.boolean());

describe('room-integration endpoints', () => {
  let tenant: TenantWithKey;
  const get = (path: string, key = tenant.key) => http('GET', `${e2eEnv().GW_E2E_BASE_URL}${path}`, { headers: bearer(key) });

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'room', featureControls: { mediaAuthorizedAssets: true, customFlag: false } });
  });

  it('refuses /v1/chatroom/models without scope with 400 naming it', async () => {
    const res = await get('/v1/chatroom/models');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false });
    expect(res.text).toContain('scope');
  });

  it('lists models by scope, total counted before the limit', async () => {
    const all = RoomModels.parse((await get('/v1/chatroom/models?scope=all')).body);
    expect(all.data.models.map((m) => m.id)).toContain('sandbox-gpt');
    expect(all.data.total).toBe(all.data.models.length);
    const limited = RoomModels.parse((await get('/v1/chatroom/models?scope=all&limit=1')).body);
    expect(limited.data.models).toHaveLength(1);
    expect(limited.data.total).toBe(all.data.total);
    const chat = RoomModels.parse((await get('/v1/chatroom/models?scope=chat')).body);
    expect(chat.data.total).toBeLessThanOrEqual(all.data.total);
  });

  it('returns the tenant feature controls, mediaAuthorizedAssets among them', async () => {
    const res = await get('/v1/chatroom/enterprise-context');
    expect(res.status).toBe(200);
    const body = z.object({ success: z.literal(true), data: z.object({ featureControls: FeatureControls }) }).parse(res.body);
    expect(body.data.featureControls).toMatchObject({ mediaAuthorizedAssets: true, customFlag: false });
  });

  it('defaults mediaAuthorizedAssets for a tenant that never set it', async () => {
    const plain = await createTenantWithKey({ label: 'room-plain' });
    const body = z.object({ data: z.object({ featureControls: FeatureControls }) }).parse((await get('/v1/chatroom/enterprise-context', plain.key)).body);
    expect(typeof body.data.featureControls.mediaAuthorizedAssets).toBe('boolean');
  });

  it('names the calling key in the key context', async () => {
    const res = await get('/v1/chatroom/key-context');
    expect(res.status).toBe(200);
    const body = z
      .object({ success: z.literal(true), data: z.object({ userId: z.string().min(1), apiKeyId: z.string(), featureControls: FeatureControls }) })
      .parse(res.body);
    expect(body.data.apiKeyId).toBe(tenant.id);
    expect(body.data.featureControls.mediaAuthorizedAssets).toBe(true);
  });

  it('requires the bearer key', async () => {
    const res = await http('GET', `${e2eEnv().GW_E2E_BASE_URL}/v1/chatroom/key-context`, { headers: { 'x-api-key': tenant.key } });
    expect(res.status).toBe(401);
  });
});
