/** Model discovery through the running gateway with the official openai and @anthropic-ai/sdk clients. */
import { ModelList } from '@gateway/contracts';
import { anthropicClient, bearer, createTenantWithKey, e2eEnv, http, openaiClient, uniqueSlug, type TenantWithKey } from './support/gateway';

const PRIVATE_COUNT = 25;

describe('model discovery', () => {
  let tenant: TenantWithKey;
  let privateIds: string[];

  beforeAll(async () => {
    const slug = uniqueSlug('paging');
    const provider = `prov-${slug}`;
    privateIds = Array.from({ length: PRIVATE_COUNT }, (_, i) => `page-${slug}-${String(i).padStart(2, '0')}`);
    tenant = await createTenantWithKey({
      label: 'paging',
      models: privateIds,
      catalog: {
        providers: [{ id: provider, protocol: 'openai', baseUrl: `${e2eEnv().GW_E2E_SANDBOX_URL}/openai/v1`, apiKey: 'sk-sandbox-upstream' }],
        models: privateIds.map((id, i) => ({
          id,
          displayName: `Paging model ${i}`,
          capability: 'chat' as const,
          public: false,
          provider,
          upstreamModel: 'sandbox-gpt',
          createdAt: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
        })),
      },
    });
  });

  it('openai SDK models.list() returns every model the key may see, public and granted', async () => {
    const ids: string[] = [];
    for await (const model of openaiClient(tenant.key).models.list()) {
      expect(model.object).toBe('model');
      ids.push(model.id);
    }
    expect(ids).toEqual(expect.arrayContaining([...privateIds, 'sandbox-gpt']));
    expect(ids).not.toContain('sandbox-gpt-private');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('@anthropic-ai/sdk models.list() pages by after_id and sees each model exactly once', async () => {
    const client = anthropicClient(tenant.key);
    const first = await client.models.list({ limit: 5 });
    expect(first.data).toHaveLength(5);
    expect(first.has_more).toBe(true);
    expect(first.last_id).toBe(first.data[4]!.id);

    const paged: string[] = [];
    for await (const model of client.models.list({ limit: 5 })) {
      expect(model.type).toBe('model');
      expect(typeof model.display_name).toBe('string');
      expect(Number.isNaN(Date.parse(model.created_at))).toBe(false);
      paged.push(model.id);
    }
    const all: string[] = [];
    for await (const model of openaiClient(tenant.key).models.list()) all.push(model.id);
    expect(paged.length).toBeGreaterThan(PRIVATE_COUNT);
    expect(new Set(paged).size).toBe(paged.length);
    expect([...paged].sort()).toEqual([...all].sort());
  });

  it('serves the list shape of the contract with cursors on both families', async () => {
    const base = e2eEnv().GW_E2E_BASE_URL;
    const oaic = await http('GET', `${base}/oaic/v1/models?limit=3`, { headers: bearer(tenant.key) });
    expect(oaic.status).toBe(200);
    const page = ModelList.parse(oaic.body);
    expect(page.data).toHaveLength(3);
    expect(page.first_id).toBe(page.data[0]!.id);
    expect(page.last_id).toBe(page.data[2]!.id);
    expect(page.has_more).toBe(true);

    const next = ModelList.parse((await http('GET', `${base}/oaic/v1/models?limit=3&after_id=${page.last_id}`, { headers: bearer(tenant.key) })).body);
    expect(next.data.map((m) => m.id)).not.toContain(page.last_id);
    const back = ModelList.parse((await http('GET', `${base}/oaic/v1/models?limit=3&before_id=${next.first_id}`, { headers: bearer(tenant.key) })).body);
    expect(back.data.map((m) => m.id)).toEqual(page.data.map((m) => m.id));
  });
});
