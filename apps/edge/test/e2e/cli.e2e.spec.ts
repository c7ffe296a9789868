/** gatewayctl against the real admin API of the running gateway: output forms, exit codes, idempotent apply. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplyResult, BalanceView, CachePurgeReply, CacheSetReply, KeyCreated, TenantView } from '@gateway/contracts';
import { runCli } from './support/cli-runner';
import { bearer, e2eEnv, http, uniqueSlug } from './support/gateway';

describe('gatewayctl against the admin API', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gatewayctl-e2e-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a tenant and a key whose plain form works on the public API', async () => {
    const slug = uniqueSlug('cli');
    const tenant = await runCli(['tenants', 'create', slug, '--billing', 'payg', '--json']);
    expect(tenant).toMatchObject({ code: 0, stderr: '' });
    expect(TenantView.parse(JSON.parse(tenant.stdout))).toMatchObject({ slug, billing: 'payg' });

    const created = await runCli(['keys', 'create', '--tenant', slug, '--name', 'ci', '--json']);
    expect(created.code).toBe(0);
    const key = KeyCreated.parse(JSON.parse(created.stdout));
    expect(key.kind).toBe('payg');
    expect(key.key.startsWith('sk-')).toBe(true);
    expect(key.masked).not.toBe(key.key);
    expect((await http('GET', `${e2eEnv().GW_E2E_BASE_URL}/oaic/v1/models`, { headers: bearer(key.key) })).status).toBe(200);

    const human = await runCli(['keys', 'list', '--tenant', slug]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(key.masked);
    expect(human.stdout).not.toContain(key.key);
  });

  it('prints a plan key with its prefix', async () => {
    const slug = uniqueSlug('cli-custom');
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    expect((await runCli(['tenants', 'create', slug, '--billing', 'custom', '--expires', expires])).code).toBe(0);
    const created = await runCli(['keys', 'create', '--tenant', slug, '--json']);
    expect(KeyCreated.parse(JSON.parse(created.stdout))).toMatchObject({ kind: 'custom', key: expect.stringMatching(/^sk-custom-/) });
  });

  it('tops up and shows a balance in exact decimals', async () => {
    const slug = uniqueSlug('cli-bal');
    expect((await runCli(['tenants', 'create', slug])).code).toBe(0);
    expect((await runCli(['balance', 'topup', '--tenant', slug, '--amount', '10.00'])).code).toBe(0);
    expect((await runCli(['balance', 'topup', '--tenant', slug, '--amount', '0.000001'])).code).toBe(0);
    const shown = await runCli(['balance', 'show', '--tenant', slug, '--json']);
    expect(BalanceView.parse(JSON.parse(shown.stdout))).toMatchObject({ balanceMicros: '10000001', balance: '10.000001' });
  });

  it('applies the same file twice: the second time changes nothing', async () => {
    const slug = uniqueSlug('cli-apply');
    const file = path.join(dir, `${slug}.yaml`);
    await writeFile(
      file,
      [
        'providers:',
        `  - { id: prov-${slug}, protocol: openai, baseUrl: "\${E2E_SANDBOX:-http://127.0.0.1:1}/openai/v1", apiKey: sk-x }`,
        'models:',
        `  - { id: m-${slug}, displayName: M, capability: chat, public: false, provider: prov-${slug}, upstreamModel: sandbox-gpt }`,
        'tenants:',
        `  - { slug: ${slug}, models: [m-${slug}] }`,
        '',
      ].join('\n'),
    );
    const first = await runCli(['apply', '-f', file, '--json']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(ApplyResult.parse(JSON.parse(first.stdout)).created).toBeGreaterThanOrEqual(3);
    const second = await runCli(['apply', '-f', file, '--json']);
    expect(ApplyResult.parse(JSON.parse(second.stdout))).toMatchObject({ created: 0, updated: 0, changes: [] });
  });

  it('exits 2 with one line when the admin API refuses the input', async () => {
    const slug = uniqueSlug('cli-dup');
    expect((await runCli(['tenants', 'create', slug])).code).toBe(0);
    const again = await runCli(['tenants', 'create', slug]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^error: admin API: .*already exists.*\n$/);
    const unknown = await runCli(['keys', 'list', '--tenant', uniqueSlug('nobody')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('is refused without the admin token (exit 2), as is a raw request', async () => {
    const result = await runCli(['keys', 'list', '--tenant', 'demo'], { adminToken: null });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: admin API: .*\[401 /);
    const raw = await http('GET', `${e2eEnv().GW_E2E_ADMIN_URL}/admin/tenants/demo`);
    expect(raw.status).toBe(401);
    const wrong = await http('GET', `${e2eEnv().GW_E2E_ADMIN_URL}/admin/tenants/demo`, { headers: bearer('not-the-token') });
    expect(wrong.status).toBe(401);
  });

  // Eight gatewayctl processes, one after the other: on a busy machine each start takes seconds.
  it("sets a tenant's response cache, narrows it for one key, and purges the tenant's entries", async () => {
    const slug = uniqueSlug('cached');
    expect((await runCli(['tenants', 'create', slug])).code).toBe(0);
    const key = KeyCreated.parse(JSON.parse((await runCli(['keys', 'create', '--tenant', slug, '--json'])).stdout));

    const on = await runCli(['cache', 'set', '--tenant', slug, '--mode', 'read_write', '--ttl', '600', '--json']);
    expect(on).toMatchObject({ code: 0, stderr: '' });
    expect(CacheSetReply.parse(JSON.parse(on.stdout)).effective).toEqual({ mode: 'read_write', ttlSeconds: 600, sampled: false });
    const narrowed = await runCli(['cache', 'set', '--tenant', slug, '--key', key.id, '--mode', 'read_only']);
    expect(narrowed.code).toBe(0);
    expect(narrowed.stdout).toContain(`key ${key.id}: read_only`);
    expect(narrowed.stdout).toContain('effective: read_only, ttl 600 s');

    const purged = await runCli(['cache', 'purge', '--tenant', slug, '--json']);
    expect(CachePurgeReply.parse(JSON.parse(purged.stdout))).toEqual({ tenant: slug, purged: 0 });
    const wrongMode = await runCli(['cache', 'set', '--tenant', slug, '--mode', 'sometimes']);
    expect(wrongMode.code).not.toBe(0);
    expect(wrongMode.stderr).toContain('--mode');
    const unknown = await runCli(['cache', 'purge', '--tenant', uniqueSlug('nobody')]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('does not exist');
  }, 120_000);
});
