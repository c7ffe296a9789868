/**
 * The tenant console's data pages in headless Chromium against the running stack: the overview, a chat
 * request showing in usage within 5 s with its cost (and in the CSV export), a media task moving to
 * succeeded with a result link that opens, music webhook deliveries with every attempt and a redelivery,
 * a viewer who sees no redeliver button and whose call is refused, a key's own limits set and shown.
 * axe-core checks every page for serious and critical violations.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newPerson, screenshot, seriousViolations } from './support/browser';
import { PASSWORD, personWithPassword } from './support/console-people';
import { chatFile, finished, waitForBatch } from './support/batch-fixtures';
import { fetchLink, post } from './support/media-fixtures';
import { baseUrl, bearer, createTenantWithKey, http, openaiClient, uniqueSlug, type TenantWithKey } from './support/gateway';
import { runCli } from './support/cli-runner';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(90_000);

describe('tenant console data pages in a browser', () => {
  let browser: Browser;
  let owner: { context: BrowserContext; page: Page };
  let tenant: TenantWithKey;
  const receiver = new WebhookReceiver();
  const ownerEmail = `${uniqueSlug('data-owner')}@example.com`;
  const console_ = (path = '') => `${baseUrl()}/console${path}`;

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(console_('/sign-in'));
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/console\/overview$/);
  }

  async function noSeriousViolations(page: Page): Promise<void> {
    expect(await seriousViolations(page)).toEqual([]);
  }

  beforeAll(async () => {
    await receiver.start();
    browser = await launchBrowser();
    tenant = await createTenantWithKey({ label: 'console-data' });
    await personWithPassword(tenant.slug, ownerEmail, 'owner');
    const rotated = await runCli(['webhooks', 'secret', 'rotate', '--tenant', tenant.slug, '--json']);
    expect(rotated.code).toBe(0);
    owner = await newPerson(browser);
  });

  afterAll(async () => {
    await browser?.close();
    await receiver.stop();
  });

  it('lands on the overview after sign-in', async () => {
    const { page } = owner;
    await signIn(page, ownerEmail);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByTestId('stat-spend-this-month').waitFor();
    const balance = page.getByTestId('stat-balance');
    await balance.filter({ hasNotText: '…' }).waitFor();
    expect(await balance.textContent()).toBe('100.00');
    await noSeriousViolations(page);
  });

  it('shows a chat request made with a key in usage within 5 s, with its cost, and in the CSV export', async () => {
    const { page } = owner;
    const clientRequestId = uniqueSlug('console-usage');
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    const completion = await openaiClient(tenant.key).chat.completions.create(
      { model: 'sandbox-gpt', messages: [{ role: 'user', content: 'Hello from the usage page' }] },
      { headers: { 'x-request-id': clientRequestId } },
    );
    expect(completion.choices[0]!.message.content).toBeTruthy();
    const answered = Date.now();
    const row = page.getByTestId('usage-record').filter({ hasText: 'sandbox-gpt' });
    for (;;) {
      await page.reload();
      await page.getByTestId('usage-summary').or(page.getByText('No usage in these days')).waitFor();
      if ((await row.count()) > 0) break;
      if (Date.now() - answered > 5000) throw new Error('the request did not show in usage within 5 s');
      await page.waitForTimeout(250);
    }
    expect(Date.now() - answered).toBeLessThanOrEqual(5000);
    const cost = (await row.first().locator('td').nth(6).textContent())!;
    expect(Number(cost)).toBeGreaterThan(0);
    expect(await page.getByTestId('usage-summary').textContent()).toContain(new Date().toISOString().slice(0, 10));
    await noSeriousViolations(page);
    await screenshot(page, 'usage');

    await row
      .first()
      .getByRole('button', { name: /^Details of request/ })
      .click();
    const charge = page.getByRole('dialog').getByTestId('record-charge');
    await charge.waitFor();
    expect(await charge.textContent()).toBe(`Charged ${cost}`);
    expect(await page.getByRole('dialog').textContent()).toContain(clientRequestId);
    await noSeriousViolations(page);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    const csv = await page.evaluate(async () => (await fetch('/console/api/usage/export.csv?of=records')).text());
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^request_id,at,kind,model,/);
    expect(lines.find((line) => line.includes(clientRequestId))).toContain(`,sandbox-gpt,`);

    // The overview's spend is that one request's cost, to the last micro-unit: never rounded to 0.00.
    await page.getByRole('link', { name: 'Overview' }).click();
    // (The page may first show the figure it fetched before the request, then refresh it.)
    const spend = page.getByTestId('stat-spend-this-month');
    await spend.filter({ hasText: new RegExp(`^${cost.replace('.', '\\.')}$`) }).waitFor({ timeout: 20_000 });
    expect(await spend.textContent()).toBe(cost);
  });

  it('follows a media task to succeeded, with its charge and a result link that opens', async () => {
    const { page } = owner;
    const created = await post(tenant.key, '/oaic/v1/videos', { model: 'sandbox-sora', prompt: 'console tasks', seconds: '4' });
    expect(created.status).toBe(200);
    const id = (created.body as { id: string }).id;
    await page.getByRole('link', { name: 'Tasks' }).click();
    const row = page.getByTestId('task-row').filter({ hasText: id });
    await row.getByText('succeeded').waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('charged 0.40');
    const link = (await row.getByRole('link', { name: /^Result 1/ }).getAttribute('href'))!;
    const fetched = await fetchLink(link);
    expect(fetched.status).toBe(200);
    expect(fetched.type).toBe('video/mp4');
    await noSeriousViolations(page);
    await screenshot(page, 'tasks');
  });

  it('lists a batch with its lines done, its output file and what its lines were charged', async () => {
    const { page } = owner;
    const client = openaiClient(tenant.key);
    const input = await client.files.create({ file: chatFile(2, ['sandbox-gpt'], 'console'), purpose: 'batch' });
    const created = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const batch = await waitForBatch(client, created.id, finished);
    expect(batch.status).toBe('completed');
    const row = page.getByTestId('task-row').filter({ hasText: batch.id });
    // The lines' charges come from their usage records, which the usage writer files a moment after the
    // batch ends: the page is opened again until they show.
    let charged: RegExpExecArray | null = null;
    await page.getByRole('link', { name: 'Tasks' }).click();
    for (const deadline = Date.now() + 20_000; !charged;) {
      await page.getByText('Batches', { exact: true }).click();
      await row.getByText('succeeded').waitFor();
      charged = /charged (\d+\.\d+)/.exec((await row.textContent())!);
      if (!charged && Date.now() > deadline) throw new Error(`the batch row shows no charge: ${await row.textContent()}`);
      if (!charged) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await page.reload();
      }
    }
    expect(await row.textContent()).toContain(batch.output_file_id!);
    expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(Number(charged[1])).toBeGreaterThan(0);
    await noSeriousViolations(page);
  });

  it('lists webhook deliveries with every attempt, and redelivers one', async () => {
    const { page } = owner;
    const path = uniqueSlug('console-hook');
    const created = await http('POST', `${baseUrl()}/music/generate-lyrics`, {
      headers: bearer(tenant.key),
      json: { prompt: 'the console', callBackUrl: receiver.url(path, 1) },
    });
    expect(created.status).toBe(200);
    await eventually(async () => receiver.at(path).some((hit) => hit.status === 204), 20_000, 'the lyrics webhook delivered');
    const before = receiver.at(path).length;

    // The music task is on the tasks page too, with what it was charged.
    const taskId = (created.body as { data: { taskId: string } }).data.taskId;
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByText('Music', { exact: true }).click();
    const task = page.getByTestId('task-row').filter({ hasText: taskId });
    await task.getByText('succeeded').waitFor();
    expect(await task.textContent()).toMatch(/charged \d+\.\d+/);

    await page.getByRole('link', { name: 'Webhooks' }).click();
    const row = page.getByTestId('delivery-row').filter({ hasText: 'delivered' }).first();
    await row.waitFor();
    // The receiver refused the first attempt: both attempts are listed, with their response codes.
    const attempts = row.getByTestId('delivery-attempts');
    expect(await attempts.textContent()).toContain('503');
    expect(await attempts.textContent()).toContain('204');
    const shown = await attempts.locator('tbody tr').count();
    await noSeriousViolations(page);
    await screenshot(page, 'webhook-deliveries');

    await row.getByRole('button', { name: /^Redeliver/ }).click();
    await eventually(async () => receiver.at(path).length > before, 10_000, 'the redelivery received');
    await eventually(
      async () => {
        await page.reload();
        const first = page.getByTestId('delivery-row').filter({ hasText: 'delivered' }).first();
        await first.waitFor();
        return (await first.getByTestId('delivery-attempts').locator('tbody tr').count()) > shown;
      },
      10_000,
      'the redelivery listed as another attempt',
    );
  });

  it('sets a key’s own limits and shows what applies', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Limits of key e2e' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Requests per minute').fill('600');
    await dialog.getByRole('button', { name: 'Save limits' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Limits of key e2e' }).click();
    expect(await page.getByRole('dialog').getByTestId('limits-effective').textContent()).toContain('requests per minute: 600');
    await noSeriousViolations(page);
    await screenshot(page, 'key-limits');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    // The key still works under its own limit.
    expect(
      (await openaiClient(tenant.key).chat.completions.create({ model: 'sandbox-gpt', messages: [{ role: 'user', content: 'limited' }] })).choices,
    ).toHaveLength(1);
  });

  it('shows the overview with the requests of today', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('img', { name: /Requests and tasks per day/ }).waitFor();
    expect(Number(await page.getByTestId('stat-requests-this-month').textContent())).toBeGreaterThanOrEqual(2);
    await noSeriousViolations(page);
    await screenshot(page, 'overview');
  });

  it('holds a viewer to reading: deliveries listed with no redeliver button, and the API refuses with 403', async () => {
    const viewerEmail = `${uniqueSlug('data-viewer')}@example.com`;
    await personWithPassword(tenant.slug, viewerEmail, 'viewer');
    const viewer = await browser.newContext({ viewport: { width: 1200, height: 760 }, colorScheme: 'dark' });
    const page = await viewer.newPage();
    await signIn(page, viewerEmail);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByTestId('delivery-row').first().waitFor();
    expect(await page.getByRole('button', { name: /^Redeliver/ }).count()).toBe(0);
    await noSeriousViolations(page);
    const id = (await page.getByTestId('delivery-row').first().locator('code', { hasText: /^msg_/ }).textContent())!;
    const refused = await page.evaluate(async (deliveryId) => {
      const session = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
      const response = await fetch(`/console/api/webhooks/deliveries/${deliveryId}/redeliver`, {
        method: 'POST',
        headers: { 'x-csrf-token': session.csrfToken },
      });
      return { status: response.status, body: (await response.json()) as unknown };
    }, id);
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'permission_denied' } } });
    for (const path of ['/usage', '/tasks']) {
      await page.goto(console_(path));
      await page.getByRole('table').first().waitFor();
      await noSeriousViolations(page);
    }
    await viewer.close();
  });
});
