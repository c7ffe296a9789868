/**
 * Account alerts in the tenant console, in headless Chromium against the running stack: the Webhooks page
 * lists every alert fired (a soft budget's share reached, recorded while the tenant has no endpoint), an
 * owner sets the alert endpoint in the page, and a viewer sees the list with no form while the console API
 * refuses the viewer's change (403). axe-core checks the page in both colour schemes.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newPerson, seriousViolations } from './support/browser';
import { eventually } from './support/billing-fixtures';
import { ask, familyClients } from './support/chat-matrix';
import { PASSWORD, personWithPassword } from './support/console-people';
import { adminClient, baseUrl, createTenantWithKey, uniqueSlug, type TenantWithKey } from './support/gateway';
import { WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(90_000);

describe('account alerts in the tenant console', () => {
  let browser: Browser;
  let tenant: TenantWithKey;
  const receiver = new WebhookReceiver();
  const emails = { owner: `${uniqueSlug('alerts-owner')}@example.com`, viewer: `${uniqueSlug('alerts-viewer')}@example.com` };
  const opened: BrowserContext[] = [];

  async function webhooksPage(email: string): Promise<Page> {
    const person = await newPerson(browser);
    opened.push(person.context);
    const { page } = person;
    await page.goto(`${baseUrl()}/console/sign-in`);
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/console\/overview$/);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Account alerts' }).waitFor();
    await page.getByTestId('alert-endpoint').waitFor();
    return page;
  }

  beforeAll(async () => {
    await receiver.start();
    browser = await launchBrowser();
    tenant = await createTenantWithKey({ label: 'console-alerts', keyName: 'ci' });
    await personWithPassword(tenant.slug, emails.owner, 'owner');
    await personWithPassword(tenant.slug, emails.viewer, 'viewer');
    // A soft budget of nothing: the first charge reaches every share, recorded once each.
    const admin = adminClient();
    await admin.setBudget({ key: tenant.id, amount: '0.000001', period: 'month', mode: 'soft', alertAt: [100] });
    await ask(familyClients(tenant.key), 'oaic', 'sandbox-gpt', { user: 'Hello', stream: false });
    await eventually(
      'the budget alert recorded',
      async () => (await admin.listAlerts({ tenant: tenant.slug })).length,
      (n) => n === 1,
      20_000,
    );
  });

  afterAll(async () => {
    for (const context of opened) await context.close();
    await browser?.close();
    await receiver.stop();
  });

  it('lists the alert recorded without an endpoint, and lets an owner set the endpoint in the page', async () => {
    const page = await webhooksPage(emails.owner);
    expect(await page.getByTestId('alert-endpoint').textContent()).toBe('No endpoint: alerts are recorded here, not sent.');
    const row = page.getByTestId('alert-row');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const text = await row.first().textContent();
    expect(text).toContain('budget.threshold_reached');
    expect(text).toContain(`key ${tenant.id}: 100 % of 0.000001 (month, soft)`);
    expect(text).toContain('recorded only');
    expect(await seriousViolations(page)).toEqual([]);

    const url = receiver.url('console-alerts');
    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
    await page.getByRole('textbox', { name: 'Events' }).fill('budget.*,balance.*');
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await page.getByText(`Sent to ${url} (budget.*, balance.*)`).waitFor();
    expect(await adminClient().showWebhookEndpoint(tenant.slug)).toMatchObject({ url, events: ['budget.*', 'balance.*'] });
  });

  it('shows a viewer the alerts with no endpoint form, and the console API refuses the viewer’s change', async () => {
    const page = await webhooksPage(emails.viewer);
    await page.getByTestId('alert-row').first().waitFor();
    expect(await page.getByRole('button', { name: 'Save endpoint' }).count()).toBe(0);
    const refused = await page.evaluate(async () => {
      const session = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
      const response = await fetch('/console/api/alerts/endpoint', {
        method: 'PUT',
        headers: { 'x-csrf-token': session.csrfToken, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://hooks.example.com/x' }),
      });
      return response.status;
    });
    expect(refused).toBe(403);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
