/**
 * The tenant console in headless Chromium against the running stack: an invite followed to a password
 * and a sign-in, a key created (shown once, then masked) and used through the openai SDK, the webhook
 * secret rotated, a viewer held to reading, sign-out ending the session on the server, CSRF and a
 * replayed cookie refused. axe-core checks every page for serious and critical violations.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runCli } from './support/cli-runner';
import { cookieHeader, launchBrowser, newPerson, screenshot, seriousViolations } from './support/browser';
import { inviteLink, PASSWORD, personWithPassword } from './support/console-people';
import { adminClient, baseUrl, createTenantWithKey, http, openaiClient, uniqueSlug } from './support/gateway';

jest.setTimeout(90_000);

/** Polls until the console session behind `cookie` gets `expected` on a replica; fails after `withinMs` (far below the session cache's TTL). */
async function sessionStatusWithin(base: string, cookie: string, expected: number, withinMs = 1000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const got = (await http('GET', `${base}/console/api/session`, { headers: { cookie } })).status;
    if (got === expected) return;
    if (Date.now() - started > withinMs) throw new Error(`${base} still answered ${got} after ${withinMs} ms (expected ${expected})`);
    await sleep(25);
  }
}

describe('tenant console in a browser', () => {
  let browser: Browser;
  let owner: { context: BrowserContext; page: Page };
  let tenant: string;
  const ownerEmail = `${uniqueSlug('owner')}@example.com`;
  const console_ = (path = '') => `${baseUrl()}/console${path}`;

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(console_('/sign-in'));
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/console\/overview$/);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(/\/console\/keys$/);
  }

  async function noSeriousViolations(page: Page): Promise<void> {
    expect(await seriousViolations(page)).toEqual([]);
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    tenant = (await createTenantWithKey({ label: 'console' })).slug;
    owner = await newPerson(browser);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('follows an invite to a password and is signed in; signs in again with it', async () => {
    const { page } = owner;
    await page.goto(console_('/sign-in'));
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await noSeriousViolations(page);
    await screenshot(page, 'sign-in');

    await page.goto(await inviteLink(tenant, ownerEmail, 'owner'));
    await page.getByText(ownerEmail).waitFor();
    // The token leaves the address bar at once: it is in no history entry or bookmark afterwards.
    expect(page.url()).toBe(console_('/set-password'));
    await page.getByLabel('New password').fill('too short');
    await page.getByText('Use at least 15 characters').waitFor();
    // The server's rule, judged on the page as the person types: a keyboard run repeated is long enough and still refused.
    await page.getByLabel('New password').fill('qwertyuiopqwertyuiop');
    await page.getByText('This password is easy to guess.').waitFor();
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await noSeriousViolations(page);
    await screenshot(page, 'set-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    // Setting the password signs the person in with it.
    await page.waitForURL(/\/console\/overview$/);
    await page.getByText(`${ownerEmail} (owner)`).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();

    await page.getByRole('textbox', { name: 'Email' }).fill(ownerEmail);
    await page.getByRole('textbox', { name: 'Password' }).fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('The email or the password is wrong, or this email had too many wrong passwords').waitFor();
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/console\/overview$/);
    await page.getByText(`${ownerEmail} (owner)`).waitFor();
    await page.getByRole('link', { name: 'API keys' }).click();
    const cookie = (await owner.context.cookies(console_())).find((c) => c.name === 'gw_console')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
  });

  it('creates a key that is shown once, then masked, and that works through the openai SDK', async () => {
    const { page } = owner;
    await page.getByLabel('Key name').fill('from-the-console');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret-value').textContent())!.trim();
    expect(secret).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    await noSeriousViolations(page);
    await screenshot(page, 'keys-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByTestId('secret-value').waitFor({ state: 'detached' });
    const row = page.getByTestId('key-row').filter({ hasText: 'from-the-console' });
    expect(await row.textContent()).toContain(`${secret.slice(0, 7)}…${secret.slice(-4)}`);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
    await noSeriousViolations(page);
    await screenshot(page, 'keys');

    const completion = await openaiClient(secret).chat.completions.create({
      model: 'sandbox-gpt',
      messages: [{ role: 'user', content: 'Hello from the console' }],
    });
    expect(completion.choices[0]!.message.content).toBeTruthy();
  });

  it('rotates the webhook signing secret and shows it once', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    const secret = (await page.getByTestId('secret-value').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await noSeriousViolations(page);
    await screenshot(page, 'webhooks');
    await page.reload();
    await page.getByRole('button', { name: 'Rotate signing secret' }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('lists the models the tenant may use with their prices', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Models' }).click();
    await page.getByText('sandbox-gpt', { exact: true }).waitFor();
    expect(await page.getByRole('table').textContent()).toMatch(/per 1M input tokens/);
    await noSeriousViolations(page);
    await screenshot(page, 'models');
  });

  it('holds a viewer to reading: no create button, and the API refuses with 403', async () => {
    const viewerEmail = `${uniqueSlug('viewer')}@example.com`;
    await personWithPassword(tenant, viewerEmail, 'viewer');
    const viewer = await browser.newContext({ viewport: { width: 1200, height: 760 }, colorScheme: 'dark' });
    const page = await viewer.newPage();
    await signIn(page, viewerEmail);
    await page.getByTestId('key-row').first().waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
    // In dark mode too, nothing axe calls serious.
    await noSeriousViolations(page);
    const refused = await page.evaluate(async () => {
      const session = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
      const response = await fetch('/console/api/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({ name: 'not allowed' }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'permission_denied' } } });
    await viewer.close();
  });

  it('refuses a state-changing call without the CSRF token or with a wrong one, and a cookie replayed from another origin', async () => {
    const cookie = await cookieHeader(owner.context, console_());
    const create = (headers: Record<string, string>) => http('POST', console_('/api/keys'), { headers: { cookie, ...headers }, json: { name: 'forged' } });
    expect((await create({ origin: baseUrl() })).status).toBe(403);
    expect((await create({ origin: baseUrl(), 'x-csrf-token': 'A'.repeat(43) })).status).toBe(403);
    const session = await http('GET', console_('/api/session'), { headers: { cookie } });
    const csrf = (session.body as { csrfToken: string }).csrfToken;
    const stolen = await create({ origin: 'https://attacker.example', 'x-csrf-token': csrf });
    expect(stolen).toMatchObject({ status: 403, body: { error: { param: 'origin' } } });
    expect((await http('GET', console_('/api/keys'), { headers: { cookie, origin: 'https://attacker.example' } })).status).toBe(403);
    const keys = await adminClient().listKeys(tenant);
    expect(keys.map((k) => k.name)).not.toContain('forged');
  });

  it('signs out on the server: the cookie the browser held is refused afterwards, on either edge replica', async () => {
    const { page, context } = owner;
    const cookie = await cookieHeader(context, console_());
    expect((await http('GET', console_('/api/session'), { headers: { cookie } })).status).toBe(200);
    expect((await http('GET', `${baseUrl(2)}/console/api/session`, { headers: { cookie } })).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    expect((await http('GET', console_('/api/session'), { headers: { cookie } })).status).toBe(401);
    await sessionStatusWithin(baseUrl(2), cookie, 401);
    await page.goto(console_('/keys'));
    await page.waitForURL(/\/console\/sign-in$/);
  });

  it('ends a session at once on every edge when an operator runs `gatewayctl users sessions revoke`', async () => {
    const { page, context } = owner;
    await signIn(page, ownerEmail);
    const cookie = await cookieHeader(context, console_());
    // Both replicas hold the session in their cache first, so only the broadcast can make them forget it.
    expect((await http('GET', console_('/api/session'), { headers: { cookie } })).status).toBe(200);
    expect((await http('GET', `${baseUrl(2)}/console/api/session`, { headers: { cookie } })).status).toBe(200);
    const revoked = await runCli(['users', 'sessions', 'revoke', '--tenant', tenant, '--email', ownerEmail, '--json']);
    expect(revoked).toMatchObject({ code: 0 });
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: 1 });
    await sessionStatusWithin(baseUrl(1), cookie, 401);
    await sessionStatusWithin(baseUrl(2), cookie, 401);
    await page.reload();
    await page.waitForURL(/\/console\/sign-in$/);
  });
});
