/**
 * Secrets and served files end to end (the stack runs with WEBHOOK_ALLOW_PRIVATE=true, as `npm start`
 * users test local receivers): the gateway's own listeners are never a callback, the admin API takes no
 * call without its token, links signed with the former development secret are refused, stored bytes
 * come back inert, and a revoked webhook secret stops signing at once.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { bearer, createTenantWithKey, e2eEnv, http, type TenantWithKey } from './support/gateway';
import { runCli } from './support/cli-runner';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

const base = () => e2eEnv().GW_E2E_BASE_URL;
const admin = () => e2eEnv().GW_E2E_ADMIN_URL;
const song = (callBackUrl: string) => ({ customMode: false, instrumental: false, model: 'sandbox-music', callBackUrl, prompt: 'a short song' });
const generate = (key: string, callBackUrl: string) => http('POST', `${base()}/music/generate`, { headers: bearer(key), json: song(callBackUrl) });

describe('secrets and served files', () => {
  const receiver = new WebhookReceiver();
  let tenant: TenantWithKey;

  beforeAll(async () => {
    await receiver.start();
    tenant = await createTenantWithKey({ label: 'secrets' });
  });
  afterAll(() => receiver.stop());

  it("refuses the gateway's own listeners as a callBackUrl although private addresses are allowed", async () => {
    const adminPort = new URL(admin()).port;
    const publicPort = new URL(base()).port;
    const keyId = randomUUID();
    for (const url of [
      `${admin()}/admin/keys/${keyId}/revoke`,
      `http://localhost:${adminPort}/admin/keys/${keyId}/revoke`,
      `http://[::1]:${adminPort}/admin/tenants`,
      `http://0.0.0.0:${adminPort}/admin/tenants`,
      `http://127.0.0.1:${publicPort}/oaic/v1/models`,
      `${e2eEnv().GW_E2E_BASE_URL_2}/metrics`,
    ]) {
      const refused = await generate(tenant.key, url);
      expect({ url, status: refused.status }).toEqual({ url, status: 400 });
      expect((refused.body as { msg: string }).msg).toMatch(/callBackUrl.*own listeners/);
    }
    // A receiver of the tenant's own on loopback is still accepted under the development flag.
    expect((await generate(tenant.key, receiver.url('own-receiver'))).status).toBe(200);
  });

  it('refuses an admin call that carries no token, and gatewayctl without one', async () => {
    const bare = await fetch(`${admin()}/admin/healthz`);
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { error: { code: string } }).error.code).toBe('authentication_failed');
    const cli = await runCli(['tenants', 'show', tenant.slug, '--json'], { adminToken: null });
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toMatch(/ADMIN_TOKEN|401|authentication/i);
  });

  it('refuses a link signed with the former development secret', async () => {
    const key = `media/${randomUUID()}/task_1/0.png`;
    const expiry = Math.floor(Date.now() / 1000) + 3600;
    const mac = createHmac('sha256', 'gateway-dev-signed-url-secret').update(`${key}\n${expiry}`).digest('base64url');
    const forged = await http('GET', `${base()}/files/signed/${Buffer.from(key).toString('base64url')}.${expiry}.${mac}`);
    expect(forged.status).toBe(403);
  });

  it('serves an upload claimed as text/html as an inert download', async () => {
    const form = new FormData();
    form.append('purpose', 'user_data');
    form.append('file', new File(['<script>alert(document.cookie)</script>'], 'page.html', { type: 'text/html' }));
    const uploaded = await fetch(`${base()}/oaic/v1/files`, { method: 'POST', headers: bearer(tenant.key), body: form });
    expect(uploaded.status).toBe(200);
    const { id } = (await uploaded.json()) as { id: string };
    const content = await http('GET', `${base()}/oaic/v1/files/${id}/content`, { headers: bearer(tenant.key) });
    expect(content.status).toBe(200);
    expect(content.headers['content-type']).toBe('application/octet-stream');
    expect(content.headers['x-content-type-options']).toBe('nosniff');
    expect(content.headers['content-disposition']).toBe('attachment');
    expect(content.headers['content-security-policy']).toBe('sandbox');
  });

  it('ends a leaked webhook secret at once with --revoke-previous: deliveries carry only the new signature', async () => {
    const owner = await createTenantWithKey({ label: 'revoke' });
    const rotate = async (...extra: string[]) => {
      const result = await runCli(['webhooks', 'secret', 'rotate', '--tenant', owner.slug, '--json', ...extra]);
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout) as { secret: string; previousValidUntil: string | null };
    };
    const leaked = (await rotate()).secret;
    const current = await rotate('--revoke-previous');
    expect(Date.parse(current.previousValidUntil!)).toBeLessThanOrEqual(Date.now());

    expect((await generate(owner.key, receiver.url('after-revoke'))).status).toBe(200);
    const hit = await eventually(async () => receiver.at('after-revoke')[0], 20_000, 'a delivery after the revocation');
    expect(hit.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(current.secret).verify(hit.body, hit.headers)).not.toThrow();
    expect(() => new Webhook(leaked).verify(hit.body, hit.headers)).toThrow();
  });
});
