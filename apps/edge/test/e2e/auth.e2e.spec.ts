/** Spec section 5 through the running gateway: the right header per family, the msgc version, unknown keys. */
import OpenAI from 'openai';
import { bearer, createTenantWithKey, e2eEnv, http, msgcHeaders, openaiClient, type TenantWithKey } from './support/gateway';

describe('authentication', () => {
  let tenant: TenantWithKey;
  const base = () => e2eEnv().GW_E2E_BASE_URL;

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'auth' });
  });

  it('accepts the right credentials on each family', async () => {
    expect((await http('GET', `${base()}/oaic/v1/models`, { headers: bearer(tenant.key) })).status).toBe(200);
    expect((await http('GET', `${base()}/msgc/v1/models`, { headers: msgcHeaders(tenant.key) })).status).toBe(200);
  });

  it('refuses a bearer token on msgc with 401 naming x-api-key, in the msgc dialect', async () => {
    const res = await http('GET', `${base()}/msgc/v1/models`, { headers: { ...bearer(tenant.key), 'msgc-version': '2023-06-01' } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect((res.body as { error: { message: string } }).error.message).toMatch(/x-api-key/);
  });

  it('refuses x-api-key on oaic with 401 naming the bearer header, in the oaic dialect', async () => {
    const res = await http('GET', `${base()}/oaic/v1/models`, { headers: { 'x-api-key': tenant.key } });
    expect(res.status).toBe(401);
    expect((res.body as { error: { message: string } }).error.message).toMatch(/Authorization: Bearer/i);
  });

  it('answers 400 in the msgc dialect when msgc-version is missing or unknown', async () => {
    const missing = await http('GET', `${base()}/msgc/v1/models`, { headers: { 'x-api-key': tenant.key } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect((missing.body as { error: { message: string } }).error.message).toMatch(/msgc-version/);
    const unknown = await http('GET', `${base()}/msgc/v1/models`, { headers: { 'x-api-key': tenant.key, 'msgc-version': '1999-01-01' } });
    expect(unknown.status).toBe(400);
  });

  it('answers the key before msgc-version, as the vendor does: neither header, or an unknown key alone, is a 401', async () => {
    for (const headers of [{}, { 'x-api-key': `sk-${'x'.repeat(48)}` }] as Record<string, string>[]) {
      const res = await http('POST', `${base()}/msgc/v1/messages`, {
        headers,
        json: { model: 'sandbox-claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    }
  });

  it('refuses an unknown key with 401 (and the openai SDK raises AuthenticationError)', async () => {
    const unknown = `sk-${'x'.repeat(48)}`;
    expect((await http('GET', `${base()}/oaic/v1/models`, { headers: bearer(unknown) })).status).toBe(401);
    expect((await http('GET', `${base()}/msgc/v1/models`, { headers: msgcHeaders(unknown) })).status).toBe(401);
    await expect(openaiClient(unknown).models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('refuses a request without any credentials', async () => {
    expect((await http('GET', `${base()}/oaic/v1/models`)).status).toBe(401);
  });

  it('does not serve model discovery outside the prefixed routes', async () => {
    for (const path of ['/v1/models', '/genc/v1/models', '/v1beta/models']) {
      const res = await http('GET', `${base()}${path}`, { headers: bearer(tenant.key) });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });
});
