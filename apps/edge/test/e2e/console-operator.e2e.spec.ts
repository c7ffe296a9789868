/**
 * The operator console on the admin listener in headless Chromium: the admin token exchanged for a
 * session (a wrong one refused), a tenant created and topped up from the tenants page, and that
 * session held to its own listener. axe-core checks every page.
 */
import type { Browser, Page } from 'playwright-core';
import { cookieHeader, launchBrowser, newPerson, screenshot, seriousViolations } from './support/browser';
import { adminClient, baseUrl, e2eEnv, http, uniqueSlug } from './support/gateway';

jest.setTimeout(90_000);

describe('operator console in a browser', () => {
  let browser: Browser;
  let page: Page;
  const admin = () => e2eEnv().GW_E2E_ADMIN_URL;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = (await newPerson(browser)).page;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('exchanges the admin token for a session, refusing a wrong one', async () => {
    await page.goto(`${admin()}/console/`);
    await page.waitForURL(/\/console\/sign-in$/);
    await page.getByRole('heading', { name: 'Operator sign-in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operator-sign-in');
    await page.getByRole('textbox', { name: 'Admin token' }).fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That is not the admin token.').waitFor();
    await page.getByRole('textbox', { name: 'Admin token' }).fill(e2eEnv().GW_E2E_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/tenants$/);
    await page.getByRole('heading', { name: 'Tenants' }).waitFor();
    const cookies = await page.context().cookies(`${admin()}/console`);
    expect(cookies.map((c) => c.name)).toEqual(['gw_operator']);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('creates a tenant and tops it up', async () => {
    const slug = uniqueSlug('opcon');
    await page.getByLabel('Slug').fill(slug);
    await page.getByLabel('Name').fill('Made in the console');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await page.getByText(`Tenant ${slug} is created.`).waitFor();
    await page.getByLabel('Search').fill(slug);
    const row = page.getByTestId('tenant-row').filter({ hasText: slug });
    await row.waitFor();
    expect(await row.getByTestId('tenant-balance').textContent()).toBe('0.00');
    await row.getByRole('button', { name: `Top up ${slug}` }).click();
    await page.getByRole('dialog').getByLabel('Amount').fill('25.50');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Top up' }).click();
    await page.getByText(`${slug} is topped up.`).waitFor();
    await row.getByText('25.50').waitFor();
    await expect(adminClient().balance(slug)).resolves.toMatchObject({ balance: '25.500000' });
    await page.getByLabel('Search').fill('');
    await page.getByTestId('tenant-row').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operator-tenants');
  });

  it('keeps the operator session on the admin listener: the public console and the admin routes do not take it', async () => {
    const cookie = await cookieHeader(page.context(), `${admin()}/console`);
    expect((await http('GET', `${admin()}/console/api/tenants`, { headers: { cookie } })).status).toBe(200);
    expect((await http('GET', `${baseUrl()}/console/api/session`, { headers: { cookie: cookie.replace('gw_operator', 'gw_console') } })).status).toBe(401);
    expect((await http('GET', `${admin()}/admin/tenants/any`, { headers: { cookie } })).status).toBe(401);
  });

  it('signs out, after which the same cookie is refused', async () => {
    const cookie = await cookieHeader(page.context(), `${admin()}/console`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    expect((await http('GET', `${admin()}/console/api/tenants`, { headers: { cookie } })).status).toBe(401);
  });
});
