import Anthropic from '@anthropic-ai/sdk';
import { SUBJECTS } from '@gateway/contracts';
import OpenAI from 'openai';
import { buildModels } from '../testing/fake-accounts';
import { startTestEdge, type TestEdge } from '../testing/start-test-edge';

describe('model discovery and room endpoints through the official SDKs', () => {
  let t: TestEdge;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    t = await startTestEdge();
    keyA = t.accounts.addKey('tenant-a').key;
    keyB = t.accounts.addKey('tenant-b', { featureControls: {} }).key;
    t.accounts.models.set('tenant-a', [...buildModels(27), ...buildModels(2, 'tts', 'voice'), ...buildModels(1, 'image', 'pic')]);
    t.accounts.models.set('tenant-b', buildModels(2, 'chat', 'other'));
  });
  afterAll(() => t.stop());

  const openai = (key: string) => new OpenAI({ apiKey: key, baseURL: `${t.edge.url}/oaic/v1`, maxRetries: 0 });
  const anthropic = (key: string) =>
    new Anthropic({ apiKey: null, baseURL: `${t.edge.url}/msgc`, defaultHeaders: { 'x-api-key': key, 'msgc-version': '2023-06-01' }, maxRetries: 0 });

  it('openai models.list() gets every model in one page', async () => {
    const ids: string[] = [];
    for await (const model of openai(keyA).models.list()) ids.push(model.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });

  it('@anthropic-ai/sdk models.list() pages by 20 and yields each model exactly once', async () => {
    const before = t.accounts.count(SUBJECTS.accounts.models.visible);
    const ids: string[] = [];
    for await (const model of anthropic(keyA).models.list()) {
      ids.push(model.id);
      expect(model.type).toBe('model');
      expect(model.display_name).toEqual(expect.any(String));
      expect(Date.parse(model.created_at)).not.toBeNaN();
    }
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    // The tenant's list was cached by the openai test: paging costs no NATS hop.
    expect(t.accounts.count(SUBJECTS.accounts.models.visible) - before).toBe(0);
  });

  it('@anthropic-ai/sdk pages backward with before_id', async () => {
    const first = await anthropic(keyA).models.list({ limit: 25 });
    const last = first.data.at(-1)!.id;
    const back = await anthropic(keyA).models.list({ before_id: last, limit: 5 });
    expect(back.data.map((m) => m.id)).toEqual(first.data.slice(19, 24).map((m) => m.id));
    expect(back.has_more).toBe(true);
  });

  it('an unknown cursor is a 400 naming it', async () => {
    const res = await fetch(`${t.edge.url}/oaic/v1/models?after_id=missing`, { headers: { authorization: `Bearer ${keyA}` } });
    expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'after_id' } });
    await expect(anthropic(keyA).models.list({ after_id: 'missing' })).rejects.toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('each tenant sees its own list', async () => {
    const page = await openai(keyB).models.list();
    expect(page.data.map((m) => m.id).sort()).toEqual(['other-000', 'other-001']);
  });

  it('a catalog invalidation drops every cached model list', async () => {
    t.accounts.models.set('tenant-b', buildModels(3, 'chat', 'other'));
    expect((await openai(keyB).models.list()).data).toHaveLength(2);
    t.accounts.broadcast({ catalog: true });
    await t.connection.flush();
    const deadline = Date.now() + 1000;
    let count = 0;
    while (Date.now() < deadline && (count = (await openai(keyB).models.list()).data.length) !== 3) await new Promise((r) => setTimeout(r, 20));
    expect(count).toBe(3);
  });

  it('the SDKs see auth failures as their authentication errors', async () => {
    await expect(openai('sk-nope').models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(anthropic('sk-nope').models.list()).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  describe('room endpoints', () => {
    const room = (path: string, key = keyA) => fetch(`${t.edge.url}/v1/chatroom${path}`, { headers: { authorization: `Bearer ${key}` } });

    it('models by scope with total before limit', async () => {
      const res = await room('/models?scope=chat&limit=5');
      expect(res.status).toBe(200);
      const body = (await res.json()) as { success: boolean; data: { models: { capability: string }[]; total: number } };
      expect(body.success).toBe(true);
      expect(body.data.total).toBe(27);
      expect(body.data.models).toHaveLength(5);
      const audio = (await (await room('/models?scope=audio')).json()) as { data: { total: number } };
      expect(audio.data.total).toBe(2);
    });

    it('a missing or unknown scope is a 400 naming scope', async () => {
      for (const path of ['/models', '/models?scope=weird']) {
        const res = await room(path);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ success: false, error: { code: 'invalid_request', message: expect.stringContaining('scope') } });
      }
    });

    it('enterprise-context and key-context carry the feature controls', async () => {
      const enterprise = await (await room('/enterprise-context')).json();
      expect(enterprise).toEqual({ success: true, data: { featureControls: expect.objectContaining({ mediaAuthorizedAssets: true }) } });
      const other = await (await room('/enterprise-context', keyB)).json();
      expect(other).toMatchObject({ data: { featureControls: { mediaAuthorizedAssets: false } } });
      const keyContext = (await (await room('/key-context')).json()) as { data: Record<string, unknown> };
      expect(keyContext.data).toMatchObject({
        userId: 'tenant-a',
        tenantSlug: 'slug-tenant-a',
        apiKeyId: expect.any(String),
        featureControls: expect.any(Object),
      });
    });

    it('requires the bearer key', async () => {
      const res = await fetch(`${t.edge.url}/v1/chatroom/key-context`);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'authentication_failed' } });
    });
  });
});
