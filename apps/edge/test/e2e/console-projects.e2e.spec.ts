/**
 * The tenant console's Projects page in headless Chromium against the running stack: projects with their
 * keys, people and budgets. An owner sets a project's and a key's budget in the editor (the admin API
 * shows them) and gives a project role; a developer sees budgets with no editor and the console API
 * refuses their change (403); a viewer sees spend only; a developer made owner of one project edits that
 * project alone; the operator sees the projects and budgets on the tenant detail page. axe-core checks
 * the pages and the editor in both colour schemes.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runCli } from './support/cli-runner';
import { launchBrowser, newPerson, screenshot, seriousViolations } from './support/browser';
import { PASSWORD, personWithPassword } from './support/console-people';
import { adminClient, baseUrl, createTenantWithKey, e2eEnv, uniqueSlug, type TenantWithKey } from './support/gateway';

jest.setTimeout(90_000);

describe('tenant console Projects page in a browser', () => {
  let browser: Browser;
  let tenant: TenantWithKey;
  let backendKey: string;
  const emails = {
    owner: `${uniqueSlug('projects-owner')}@example.com`,
    developer: `${uniqueSlug('projects-dev')}@example.com`,
    viewer: `${uniqueSlug('projects-viewer')}@example.com`,
    lead: `${uniqueSlug('projects-lead')}@example.com`,
  };
  const opened: BrowserContext[] = [];

  async function signedIn(email: string): Promise<Page> {
    const person = await newPerson(browser);
    opened.push(person.context);
    const { page } = person;
    await page.goto(`${baseUrl()}/console/sign-in`);
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/console\/overview$/);
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await card(page, 'web').waitFor();
    return page;
  }

  const card = (page: Page, project: string) => page.getByTestId('project-card').filter({ has: page.getByRole('heading', { name: project, exact: true }) });

  /** A state-changing console call made from the signed-in page, with its CSRF token. */
  async function consoleCall(page: Page, method: 'PUT' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    return page.evaluate(
      async ({ method, path, body }) => {
        const session = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
        const headers: Record<string, string> = { 'x-csrf-token': session.csrfToken };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as unknown };
      },
      { method, path, body },
    );
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    tenant = await createTenantWithKey({ label: 'console-projects' });
    const admin = adminClient();
    await admin.createProject({ tenant: tenant.slug, name: 'web' });
    backendKey = (await admin.createKey({ tenant: tenant.slug, name: 'backend', project: 'web' })).id;
    await personWithPassword(tenant.slug, emails.owner, 'owner');
    await personWithPassword(tenant.slug, emails.developer, 'developer');
    await personWithPassword(tenant.slug, emails.viewer, 'viewer');
    await personWithPassword(tenant.slug, emails.lead, 'developer');
  });

  afterAll(async () => {
    for (const context of opened) await context.close();
    await browser?.close();
  });

  it('lets an owner set a project budget and a key budget in the editor, which the admin API then shows, and give a project role', async () => {
    const page = await signedIn(emails.owner);
    expect(await page.getByTestId('project-card').count()).toBe(2);
    expect(await card(page, 'web').getByTestId('project-key').textContent()).toContain('backend');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Budget of project web' }).click();
    const dialog = page.getByRole('dialog', { name: 'Budget of project web' });
    await dialog.getByRole('textbox', { name: 'Amount', exact: true }).fill('12.50');
    await dialog.getByRole('combobox', { name: 'Period' }).selectOption('week');
    await dialog.getByRole('combobox', { name: 'Mode' }).selectOption('soft');
    await dialog.getByRole('textbox', { name: /^Alert at/ }).fill('50, 90');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save budget' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card(page, 'web').getByTestId('budget-bar').filter({ hasText: '0.00 used of 12.50 this week, 12.50 left' }).first().waitFor();

    const shown = await adminClient().showBudget({ tenant: tenant.slug, project: 'web' });
    expect(shown).toMatchObject({ scope: 'project', project: 'web', amount: '12.500000', period: 'week', mode: 'soft', alertAt: [50, 90] });

    await page.getByRole('button', { name: 'Budget of key backend' }).click();
    const keyDialog = page.getByRole('dialog', { name: 'Budget of key backend' });
    await keyDialog.getByRole('textbox', { name: 'Amount', exact: true }).fill('3');
    await keyDialog.getByRole('button', { name: 'Save budget' }).click();
    await keyDialog.waitFor({ state: 'hidden' });
    await card(page, 'web').getByTestId('project-key').getByTestId('budget-bar').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await screenshot(page, 'projects');
    expect(await adminClient().showBudget({ key: backendKey })).toMatchObject({
      scope: 'key',
      amount: '3.000000',
      period: 'month',
      mode: 'hard',
      alertAt: [50, 80, 100],
    });

    // The editor opened on a budget shows its bar of used and left.
    await page.getByRole('button', { name: 'Budget of key backend' }).click();
    await page.getByRole('dialog', { name: 'Budget of key backend' }).getByTestId('budget-bar').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'projects-budget');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // A project role lower than the tenant role changes nothing: the higher of the two applies.
    const grant = page.getByRole('form', { name: 'Give a role on project web' });
    await grant.getByRole('textbox', { name: 'Email' }).fill(emails.developer);
    await grant.getByRole('combobox', { name: 'Project role' }).selectOption('viewer');
    await grant.getByRole('button', { name: 'Give role' }).click();
    await card(page, 'web')
      .getByTestId('project-member')
      .filter({ hasText: `${emails.developer}: viewer here (tenant role developer)` })
      .waitFor();
  });

  it('shows a developer the budgets with no editor, and the console API refuses their change with 403', async () => {
    const page = await signedIn(emails.developer);
    const web = card(page, 'web');
    await web.getByTestId('budget-bar').filter({ hasText: '12.50 this week' }).waitFor();
    expect(await page.getByRole('button', { name: /^Budget of / }).count()).toBe(0);
    expect(await web.getByRole('button', { name: 'Give role' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    const project = await consoleCall(page, 'PUT', '/console/api/projects/web/budget', { amount: '1000', period: 'total' });
    expect(project).toMatchObject({ status: 403, body: { error: { code: 'permission_denied' } } });
    const key = await consoleCall(page, 'DELETE', `/console/api/keys/${backendKey}/budget`);
    expect(key).toMatchObject({ status: 403, body: { error: { code: 'permission_denied' } } });
    expect(await adminClient().showBudget({ tenant: tenant.slug, project: 'web' })).toMatchObject({ amount: '12.500000' });
    expect(await adminClient().showBudget({ key: backendKey })).toMatchObject({ amount: '3.000000' });
  });

  it('shows a viewer the spend alone', async () => {
    const page = await signedIn(emails.viewer);
    const web = card(page, 'web');
    await web.getByTestId('spend-line').first().waitFor();
    expect(await web.getByTestId('budget-bar').count()).toBe(0);
    expect(await web.textContent()).not.toContain('12.50');
    expect(await page.getByRole('button', { name: /^Budget of / }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('lets a developer made owner of one project (gatewayctl projects grant) edit that project alone', async () => {
    const granted = await runCli(['projects', 'grant', '--tenant', tenant.slug, '--project', 'web', '--email', emails.lead, '--role', 'owner', '--json']);
    expect(granted.code).toBe(0);
    const page = await signedIn(emails.lead);
    await page.getByRole('button', { name: 'Budget of project web' }).waitFor();
    expect(await page.getByRole('button', { name: 'Budget of project default' }).count()).toBe(0);
    await card(page, 'web')
      .getByTestId('project-member')
      .filter({ hasText: `${emails.lead}: owner here (tenant role developer)` })
      .waitFor();
    const refused = await consoleCall(page, 'PUT', '/console/api/projects/default/budget', { amount: '1', period: 'day' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'permission_denied' } } });
    const allowed = await consoleCall(page, 'PUT', '/console/api/projects/web/budget', { amount: '20', period: 'month' });
    expect(allowed).toMatchObject({ status: 200, body: { scope: 'project', amount: '20.000000' } });
  });

  it("shows the operator the tenant's projects and budgets on the tenant detail page", async () => {
    const person = await newPerson(browser);
    opened.push(person.context);
    const { page } = person;
    const admin = e2eEnv().GW_E2E_ADMIN_URL;
    await page.goto(`${admin}/console/sign-in`);
    await page.getByRole('textbox', { name: 'Admin token' }).fill(e2eEnv().GW_E2E_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/tenants$/);
    await page.goto(`${admin}/console/tenants/${tenant.slug}`);
    await page.getByRole('heading', { name: 'Projects and budgets' }).waitFor();
    const web = page.getByTestId('tenant-project').filter({ has: page.getByRole('heading', { name: 'web', exact: true }) });
    await web.getByTestId('budget-bar').first().waitFor();
    expect(await web.textContent()).toContain('of 20.00 this month');
    expect(await web.textContent()).toContain('of 3.00 this month');
    expect(await web.textContent()).toContain(`${emails.lead}: owner (tenant role developer)`);
    expect(await web.textContent()).toContain(`${emails.developer}: viewer (tenant role developer)`);
    expect(await page.getByTestId('tenant-project').count()).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
