/**
 * The operator console on the admin listener in headless Chromium: the admin token exchanged for a
 * session (a wrong one refused), a tenant created and topped up from the tenants page, its spend after
 * a chat request, the catalog's channel health, a dead letter inspected and replayed, queue depths and
 * reconciliation, and that session held to its own listener. axe-core checks every page.
 */
import { ConsoleCatalogHealthPage, ConsoleMe, ConsoleReconcileStatus, sampleUsageEvent, usageStreamNames } from '@gateway/contracts';
import { connectNats, DeadLetterStream } from '@gateway/platform';
import type { NatsConnection } from 'nats';
import type { Browser, Page } from 'playwright-core';
import { chat, eventually, withSql } from './support/billing-fixtures';
import { cookieHeader, launchBrowser, newPerson, screenshot, seriousViolations } from './support/browser';
import { adminClient, baseUrl, e2eEnv, http, uniqueSlug } from './support/gateway';

jest.setTimeout(90_000);

describe('operator console in a browser', () => {
  let browser: Browser;
  let page: Page;
  let nats: NatsConnection;
  const slug = uniqueSlug('opcon');
  const admin = () => e2eEnv().GW_E2E_ADMIN_URL;
  const consoleGet = async (path: string) =>
    http('GET', `${admin()}/console/api${path}`, { headers: { cookie: await cookieHeader(page.context(), `${admin()}/console`) } });

  beforeAll(async () => {
    browser = await launchBrowser();
    page = (await newPerson(browser)).page;
    nats = await connectNats(e2eEnv().GW_E2E_NATS_URL, 'e2e-console-operator');
  });

  afterAll(async () => {
    await browser?.close();
    await nats?.drain();
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

  it("shows a tenant's spend this month after a chat request made with its key", async () => {
    const { key } = await adminClient().createKey({ tenant: slug, name: 'console-spend' });
    const answered = await chat(key, 'spend shown in the console');
    expect(answered.status).toBe(200);
    const usage = await eventually(
      'the chat request in the usage summary',
      () => adminClient().usage({ tenant: slug, by: 'kind' }),
      (summary) => summary.rows.some((row) => row.group === 'chat' && row.requests === 1),
    );
    const cost = usage.rows.find((row) => row.group === 'chat')!.cost;
    await page.goto(`${admin()}/console/tenants`);
    await page.getByLabel('Search').fill(slug);
    await page.getByRole('link', { name: `Details of ${slug}` }).click();
    await page.waitForURL(new RegExp(`/console/tenants/${slug}$`));
    await page.getByRole('heading', { name: `Tenant ${slug}` }).waitFor();
    const chatRow = page.getByTestId('spend-kind-row').filter({ hasText: 'chat' });
    await chatRow.waitFor();
    expect(await chatRow.locator('td').nth(1).textContent()).toBe('1');
    expect(await page.getByTestId('spend-model-row').filter({ hasText: 'sandbox-gpt' }).count()).toBe(1);
    const shown = await page.getByTestId('detail-spend').textContent();
    expect(Number(shown)).toBeCloseTo(Number(cost), 6);
    expect(Number(shown)).toBeGreaterThan(0);
    expect(await page.getByTestId('detail-balance').textContent()).toMatch(/^25\.\d+$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operator-tenant-detail');
  });

  it("lists the catalog with each channel's health from the services' counters", async () => {
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.waitForURL(/\/console\/catalog$/);
    await page.getByRole('heading', { name: 'Catalog' }).waitFor();
    await page.getByLabel('Search').fill('sandbox-gpt');
    const model = page.getByTestId('catalog-model').filter({ hasText: 'sandbox-gpt' }).first();
    await model.waitFor();
    const health = ConsoleCatalogHealthPage.parse((await consoleGet('/catalog?search=sandbox-gpt')).body);
    const served = health.data.find((m) => m.id === 'sandbox-gpt')!;
    // The chat request above went through one of its channels: the chat service's counters show it.
    expect(served.channels.reduce((calls, channel) => calls + channel.health.calls, 0)).toBeGreaterThanOrEqual(1);
    expect(health.processes.map((p) => p.app)).toEqual(expect.arrayContaining(['chat', 'media', 'music']));
    await page
      .getByText(/calls|healthy|degraded|failing/)
      .first()
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operator-catalog');
  });

  it('inspects a dead letter and replays it, after which its record is written', async () => {
    const letters = new DeadLetterStream(nats, e2eEnv().GW_E2E_NATS_PREFIX);
    const fixed = sampleUsageEvent();
    const id = await letters.add({
      consumer: 'usage',
      source: usageStreamNames(e2eEnv().GW_E2E_NATS_PREFIX).stream,
      error: 'refused before the fix',
      deliveries: 5,
      at: new Date().toISOString(),
      payload: JSON.stringify({ events: [fixed], closes: [] }),
    });
    await page.getByRole('link', { name: 'Dead letters' }).click();
    await page.waitForURL(/\/console\/dead-letters$/);
    await page.getByLabel('Writer').selectOption('usage');
    const row = page.getByTestId('dead-letter-row').filter({ has: page.getByRole('button', { name: `Inspect dead letter ${id}` }) });
    for (let pages = 0; !(await row.isVisible()) && pages < 50; pages++) {
      await page.getByTestId('dead-letter-row').first().waitFor();
      if (await row.isVisible()) break;
      await page.getByRole('button', { name: 'Next page' }).click();
    }
    await row.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operator-dead-letters');
    // By keyboard: the row's button takes focus and Enter opens the dialog.
    await row.getByRole('button', { name: `Inspect dead letter ${id}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Dead letter ${id}` });
    await dialog.getByText('refused before the fix').waitFor();
    expect(await dialog.getByTestId('dead-letter-payload').textContent()).toContain(fixed.requestId);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await page
      .getByRole('dialog', { name: `Replay dead letter ${id}?` })
      .getByRole('button', { name: 'Replay' })
      .click();
    await page.getByText(`Dead letter ${id} is replayed.`).waitFor();
    await row.waitFor({ state: 'detached' });
    await eventually(
      'the replayed usage record',
      () => withSql(async (sql) => (await sql.query('SELECT 1 FROM usage_records WHERE request_id = $1', [fixed.requestId])).rowCount ?? 0),
      (rows) => rows === 1,
    );
  });

  it('shows the depth of every service queue', async () => {
    await page.getByRole('link', { name: 'Queues' }).click();
    await page.waitForURL(/\/console\/queues$/);
    // The media service keeps a sweep job scheduled from its start.
    const sweep = page.getByTestId('queue-row').filter({ hasText: 'media-sweep' });
    await sweep.waitFor();
    expect(await sweep.locator('td').first().textContent()).toBe('media');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operator-queues');
  });

  it('runs a reconciliation of every tenant and shows its result', async () => {
    await page.getByRole('link', { name: 'Reconciliation' }).click();
    await page.waitForURL(/\/console\/reconciliation$/);
    await page.getByRole('heading', { name: 'Reconciliation' }).waitFor();
    await page.getByRole('button', { name: 'Run reconciliation now' }).click();
    await page.getByText('Reconciliation finished:').waitFor();
    await page.getByTestId('reconcile-summary').waitFor();
    const stored = ConsoleReconcileStatus.parse((await consoleGet('/reconciliation')).body);
    expect(stored.last?.checked).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('reconcile-summary').textContent()).toContain(String(stored.last!.checked));
    expect(await page.getByTestId('reconcile-failing').count()).toBe(Math.min(stored.last!.failingTotal, 20));
    // The tenant made here holds: its top-up and its one chat request agree everywhere.
    expect(stored.last!.failing.map((t) => t.tenant)).not.toContain(slug);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operator-reconciliation');
    // Dark mode keeps every page readable: checked here on the last page, then switched back.
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.getByRole('button', { name: 'Switch to light mode' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByTestId('catalog-table').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
  });

  it("refuses the operator pages' state-changing calls without the CSRF token or from another origin", async () => {
    const cookie = await cookieHeader(page.context(), `${admin()}/console`);
    // An id no dead letter of this run has: a served replay changes nothing another spec relies on.
    const ABSENT = '999999999';
    const replay = (headers: Record<string, string>) =>
      http('POST', `${admin()}/console/api/dead-letters/replay`, { headers: { cookie, ...headers }, json: { ids: [ABSENT] } });
    expect((await replay({ origin: admin() })).status).toBe(403);
    expect((await replay({ origin: admin(), 'x-csrf-token': 'A'.repeat(43) })).status).toBe(403);
    const csrf = ConsoleMe.parse((await consoleGet('/session')).body).csrfToken;
    expect(await replay({ origin: 'https://attacker.example', 'x-csrf-token': csrf })).toMatchObject({ status: 403, body: { error: { param: 'origin' } } });
    const run = await http('POST', `${admin()}/console/api/reconciliation`, { headers: { cookie, origin: admin() } });
    expect(run).toMatchObject({ status: 403, body: { error: { param: 'x-csrf-token' } } });
    // With the token the replay is served: a dead letter no longer stored is reported missing.
    expect(await replay({ origin: admin(), 'x-csrf-token': csrf })).toMatchObject({ status: 200, body: { replayed: [], missing: [ABSENT] } });
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
