/** Accounts see different model lists: a tenant's private model stays invisible to every other tenant. */
import { anthropicClient, createTenantWithKey, e2eEnv, openaiClient, uniqueSlug, bearer, http } from './support/gateway';

async function oaicIds(key: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const model of openaiClient(key).models.list()) ids.push(model.id);
  return ids;
}

async function msgcIds(key: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const model of anthropicClient(key).models.list({ limit: 7 })) ids.push(model.id);
  return ids;
}

describe('per-tenant model visibility', () => {
  it('tenant B does not see tenant A’s private model, on any family', async () => {
    const modelId = `private-${uniqueSlug('vis')}`;
    const a = await createTenantWithKey({
      label: 'vis-a',
      models: [modelId],
      catalog: {
        models: [{ id: modelId, displayName: 'Private to A', capability: 'chat', public: false, provider: 'sandbox-openai', upstreamModel: 'sandbox-gpt' }],
      },
    });
    const b = await createTenantWithKey({ label: 'vis-b' });

    expect(await oaicIds(a.key)).toContain(modelId);
    expect(await msgcIds(a.key)).toContain(modelId);
    expect(await oaicIds(b.key)).not.toContain(modelId);
    expect(await msgcIds(b.key)).not.toContain(modelId);

    const room = await http('GET', `${e2eEnv().GW_E2E_BASE_URL}/v1/chatroom/models?scope=all`, { headers: bearer(b.key) });
    expect(room.status).toBe(200);
    expect(JSON.stringify(room.body)).not.toContain(modelId);
    // Both still share the public catalog.
    expect(await oaicIds(b.key)).toContain('sandbox-gpt');
  });
});
