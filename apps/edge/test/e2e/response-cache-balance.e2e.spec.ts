/**
 * Cache hits and the balance, through the openai SDK: a hit priced above 0 holds its price like any request
 * and is refused when the balance cannot cover it; a free hit (cacheHitPerMTok 0, the default) is served
 * even when the balance covers no new request.
 */
import OpenAI from 'openai';
import { randomBytes } from 'node:crypto';
import { eventually } from './support/billing-fixtures';
import { adminClient, createTenantWithKey, e2eEnv, openaiClient } from './support/gateway';

const run = randomBytes(3).toString('hex');
const provider = `cache-bal-${run}`;
const freeHit = `free-hit-${run}`;
const pricedHit = `priced-hit-${run}`;

function model(id: string, prices: Record<string, string>) {
  return {
    id,
    displayName: id,
    capability: 'chat' as const,
    public: false,
    provider,
    upstreamModel: 'sandbox-gpt',
    createdAt: '2025-01-01T00:00:00Z',
    prices,
  };
}

interface Answer {
  status: number;
  cache: string | null;
  code: string | null;
}

describe('cache hits and the balance', () => {
  let client: OpenAI;

  beforeAll(async () => {
    const catalog = {
      providers: [{ id: provider, protocol: 'openai' as const, baseUrl: `${e2eEnv().GW_E2E_SANDBOX_URL}/openai/v1`, apiKey: `sk-${provider}` }],
      // A new request on the free-hit model holds about 0.004, so a balance of 0.01 covers two or three.
      models: [
        model(freeHit, { inputPerMTok: '100', outputPerMTok: '100', cacheHitPerMTok: '0' }),
        model(pricedHit, { inputPerMTok: '1', outputPerMTok: '1', cacheHitPerMTok: '5000' }),
      ],
    };
    const tenant = await createTenantWithKey({ label: 'cache-balance', models: [freeHit, pricedHit], catalog, balance: '0.01' });
    await adminClient().setCache({ tenant: tenant.slug, mode: 'read_write', ttlSeconds: 600 });
    client = openaiClient(tenant.key);
  });

  async function ask(modelId: string, content: string): Promise<Answer> {
    try {
      const { response } = await client.chat.completions
        .create({ model: modelId, messages: [{ role: 'user', content }], temperature: 0, max_tokens: 16 })
        .withResponse();
      return { status: response.status, cache: response.headers.get('x-gateway-cache'), code: null };
    } catch (error) {
      if (!(error instanceof OpenAI.APIError)) throw error;
      return { status: error.status ?? 0, cache: error.headers?.get('x-gateway-cache') ?? null, code: error.code ?? null };
    }
  }

  it('serves a free hit when no new request fits, and refuses a priced hit the balance cannot cover', async () => {
    expect(await ask(pricedHit, `priced ${run}`)).toMatchObject({ status: 200, cache: 'miss' });
    expect(await ask(freeHit, `free ${run}`)).toMatchObject({ status: 200, cache: 'miss' });
    // New questions until the balance covers no further one.
    let refused: Answer | null = null;
    for (let i = 0; i < 10 && refused === null; i++) {
      const answer = await ask(freeHit, `drain ${run} ${i}`);
      if (answer.status !== 200) refused = answer;
    }
    expect(refused).toEqual({ status: 429, cache: 'miss', code: 'insufficient_quota' });

    const hit = await eventually(
      'the free hit',
      () => ask(freeHit, `free ${run}`),
      (answer) => answer.cache === 'hit',
    );
    expect(hit.status).toBe(200);
    // The priced hit costs about 0.2 (its stored tokens at 5000 per million): more than the balance left. As a
    // new request it would hold about 0.00003 and fit: only the hit's own price can refuse it.
    expect(await ask(pricedHit, `priced ${run}`)).toMatchObject({ status: 429, code: 'insufficient_quota' });
  }, 60_000);
});
