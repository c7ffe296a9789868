/**
 * Single sign-on into the tenant console through a local OpenID provider (the oidc-provider package, in
 * its own process): the operator points the tenant at it with gatewayctl, a person who was invited signs
 * in there and lands in the console with their role; someone the tenant never invited is turned away.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { once } from 'node:events';
import type { Browser, Page } from 'playwright-core';
import { runCli } from './support/cli-runner';
import { launchBrowser, newPerson, seriousViolations } from './support/browser';
import { inviteLink } from './support/console-people';
import { request } from 'undici';
import { baseUrl, createTenantWithKey, uniqueSlug } from './support/gateway';

jest.setTimeout(90_000);

/** Starts the provider; resolves with its issuer once it listens. */
async function startProvider(clientId: string, clientSecret: string, redirectUri: string): Promise<{ issuer: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'support', 'oidc-provider.mjs'), clientId, clientSecret, redirectUri], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its warnings (development keys, Node 20) are expected: shown only if it fails to start.
  let warnings = '';
  child.stderr!.on('data', (chunk) => (warnings += String(chunk)));
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += String(chunk);
      const ready = /ready (\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    });
    child.once('exit', () => reject(new Error(`the OpenID provider exited before it was ready: ${output}${warnings}`)));
  });
  return { issuer, child };
}

/** The provider's own development login and consent pages. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password the dev provider takes');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]', { hasText: /continue/i }).click();
}

describe('single sign-on into the tenant console', () => {
  let browser: Browser;
  let provider: { issuer: string; child: ChildProcess };
  let tenant: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    tenant = (await createTenantWithKey({ label: 'sso' })).slug;
    provider = await startProvider('gateway-console', 'console-client-secret', `${baseUrl()}/console/api/oidc/callback`);
    const set = await runCli([
      'users',
      'oidc',
      'set',
      '--tenant',
      tenant,
      '--issuer',
      provider.issuer,
      '--client-id',
      'gateway-console',
      '--client-secret',
      'console-client-secret',
      '--json',
    ]);
    expect(set).toMatchObject({ code: 0 });
    expect(set.stdout).not.toContain('console-client-secret');
  });

  afterAll(async () => {
    await browser?.close();
    if (provider && provider.child.exitCode === null) {
      const exited = once(provider.child, 'exit');
      provider.child.kill();
      await exited;
    }
  });

  it('signs an invited person in through the provider, with the role of the invite', async () => {
    const login = uniqueSlug('sso-dev');
    // Invited, never set a password: the provider's verified email is what links the person.
    await inviteLink(tenant, `${login}@sso.example`, 'developer');
    const { page, context } = await newPerson(browser);
    await page.goto(`${baseUrl()}/console/sign-in`);
    await page.getByLabel('Organization').fill(tenant);
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.waitForURL((url) => url.toString().startsWith(provider.issuer));
    await signInAtProvider(page, login);
    await page.waitForURL(/\/console\/overview$/);
    await page.getByText(`${login}@sso.example (developer)`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect((await context.cookies(`${baseUrl()}/console`)).find((c) => c.name === 'gw_console')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const users = await runCli(['users', 'list', '--tenant', tenant, '--json']);
    expect(JSON.parse(users.stdout).data).toEqual([
      expect.objectContaining({ email: `${login}@sso.example`, role: 'developer', sso: true, hasPassword: false }),
    ]);
    await context.close();
  });

  it('turns away someone the tenant never invited, saying what to do', async () => {
    const { page, context } = await newPerson(browser);
    await page.goto(`${baseUrl()}/console/sign-in`);
    await page.getByLabel('Organization').fill(tenant);
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.waitForURL((url) => url.toString().startsWith(provider.issuer));
    await signInAtProvider(page, uniqueSlug('stranger'));
    await page.waitForURL(/\/console\/sign-in\?error=sso_not_invited$/);
    await page.getByText(/you have no console account here: ask a tenant owner or operator for an invite/).waitFor();
    expect((await context.cookies(`${baseUrl()}/console`)).find((c) => c.name === 'gw_console')).toBeUndefined();
    await context.close();
  });

  it('answers alike for a tenant that does not exist and one without single sign-on', async () => {
    const withoutSso = (await createTenantWithKey({ label: 'no-sso' })).slug;
    const start = async (slug: string) => {
      const answer = await request(`${baseUrl()}/console/api/oidc/start?tenant=${slug}`, { method: 'GET' });
      return { status: answer.statusCode, location: answer.headers.location, body: await answer.body.text() };
    };
    const missing = await start(uniqueSlug('missing'));
    expect(missing).toMatchObject({ status: 303, location: '/console/sign-in?error=sso_not_configured' });
    expect(await start(withoutSso)).toEqual(missing);
  });
});
