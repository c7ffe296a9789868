/**
 * The tenant sign-in page as Chromium renders it from the built console, served by a real edge: a message
 * in the address (`?error=…&notice=…`) is a code the page owns a sentence for, and text anyone writes into
 * the address never reaches the page. A failed single sign-on comes back with such a code.
 */
import { GatewayError, SUBJECTS } from '@gateway/contracts';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestEdge, type TestEdge } from '../testing/start-test-edge';
import { launchHeadlessChromium } from '../testing/headless-chromium';

const BUILT_CONSOLE = path.resolve(__dirname, '../../../console/dist');

/** The page's text once it has rendered its sign-in form. */
async function signInPageText(page: Page, url: string): Promise<string> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  return page.locator('body').innerText();
}

function location(base: string, rawPath: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${rawPath}`, { agent: false }, (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, location: response.headers.location });
      })
      .on('error', reject);
  });
}

describe('the sign-in page says only what it owns', () => {
  let t: TestEdge;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(path.join(BUILT_CONSOLE, 'index.html'))) throw new Error(`the console is not built at ${BUILT_CONSOLE}: run npm run build`);
    process.env.CONSOLE_DIST_DIR = BUILT_CONSOLE;
    t = await startTestEdge();
    t.accounts.on(SUBJECTS.accounts.console.sessions.resolve, () => null);
    t.accounts.on(SUBJECTS.accounts.console.oidc.begin, () => {
      throw GatewayError.notFound('tenant "acme" has no single sign-on: <b>call 555 0100</b>', 'tenant');
    });
    browser = await launchHeadlessChromium();
    const context = await browser.newContext({ viewport: { width: 1200, height: 760 }, locale: 'en-US' });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    delete process.env.CONSOLE_DIST_DIR;
  });

  it('shows none of the text an address carries in error or notice', async () => {
    const error = 'Your account is locked. Call 555 0100 at evil.example <b>now</b>';
    const notice = 'Password reset required: visit attacker.example';
    const text = await signInPageText(page, `${t.edge.url}/console/sign-in?error=${encodeURIComponent(error)}&notice=${encodeURIComponent(notice)}`);
    for (const planted of ['locked', '555 0100', 'evil.example', 'attacker.example', 'Password reset']) expect(text).not.toContain(planted);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('status').count()).toBe(0);
  }, 60_000);

  it('shows nothing for a code it does not own', async () => {
    const text = await signInPageText(page, `${t.edge.url}/console/sign-in?error=sso_made_up&notice=password-reset`);
    expect(text).not.toContain('sso_made_up');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('status').count()).toBe(0);
  }, 60_000);

  it('shows its own sentence for a known code', async () => {
    await signInPageText(page, `${t.edge.url}/console/sign-in?error=sso_not_invited`);
    await page.getByRole('alert').getByText('you have no console account here: ask a tenant owner or operator for an invite').waitFor();
    await signInPageText(page, `${t.edge.url}/console/sign-in?notice=password-set`);
    await page.getByRole('status').getByText('Your password is set').waitFor();
  }, 60_000);

  it('sends a failed single sign-on back with a code, never with the error’s words', async () => {
    expect(await location(t.edge.url, '/console/api/oidc/start?tenant=')).toEqual({ status: 303, location: '/console/sign-in?error=sso_organization_missing' });
    expect(await location(t.edge.url, '/console/api/oidc/start?tenant=acme')).toEqual({ status: 303, location: '/console/sign-in?error=sso_not_configured' });
    expect(await location(t.edge.url, '/console/api/oidc/callback?state=aaaaaaaaaaaaaaaaaaaa')).toEqual({
      status: 303,
      location: '/console/sign-in?error=sso_expired',
    });
    const text = await signInPageText(page, `${t.edge.url}/console/api/oidc/start?tenant=acme`);
    expect(text).toContain('This organization does not sign in with single sign-on');
    expect(text).not.toContain('555 0100');
  }, 60_000);
});
