/**
 * Headless Chromium (Debian's package) driven by playwright-core, for the console specs: one browser per
 * spec file, one fresh context (cookies, storage) per person, axe-core on every page, and screenshots
 * into CONSOLE_SCREENSHOTS_DIR when it is set (docs/console/ holds the committed ones).
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchHeadlessChromium } from '../../../src/testing/headless-chromium';

/** One headless Chromium for a spec file. */
export const launchBrowser = launchHeadlessChromium;

export async function newPerson(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 760 }, colorScheme: 'light', locale: 'en-US' });
  context.setDefaultTimeout(20_000);
  // Nothing leaves this machine: a page asking for a foreign host (the OpenID provider's web fonts) is told no at once.
  await context.route(
    (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
    (route) => route.abort(),
  );
  const page = await context.newPage();
  // A page that breaks says why in the test output, not only by a locator that never appears.
  page.on('pageerror', (error) => process.stderr.write(`console page error: ${error.message}\n`));
  page.on('console', (message) => {
    if (message.type() === 'error') process.stderr.write(`console page log: ${message.text()}\n`);
  });
  return { context, page };
}

/**
 * axe-core's serious and critical findings on the page as it stands, in the light and in the dark colour
 * scheme (the console follows the system's), as readable lines (empty: none).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await settledViolations(page)).map((line) => `${scheme}: ${line}`));
  }
  return found;
}

async function settledViolations(page: Page): Promise<string[]> {
  // A dialog fading in has its colours half-way: contrast is judged once every transition has ended.
  await transitionsEnded(page);
  const found = await serious(page);
  if (!found.some((violation) => violation.includes(' color-contrast:'))) return found;
  // A transition that had not begun when the page was first looked at (a dialog opening on the next
  // frame) has ended by now: contrast is judged again on the settled page, and a real fault stays.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await transitionsEnded(page);
  return serious(page);
}

async function serious(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Waits (up to 5 s) until no CSS transition of the page is running (a spinner's endless animation is not waited for). */
async function transitionsEnded(page: Page): Promise<void> {
  const running = () =>
    page.evaluate(() => {
      const { document } = globalThis as unknown as { document: { getAnimations(): { playState: string; transitionProperty?: string }[] } };
      return document.getAnimations().some((animation) => animation.transitionProperty !== undefined && animation.playState === 'running');
    });
  for (const deadline = Date.now() + 5_000; Date.now() < deadline && (await running());) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Saves the page as docs/console/<name>.png when CONSOLE_SCREENSHOTS_DIR is set; otherwise nothing. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS_DIR;
  if (!dir) return;
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/** The Cookie header a browser context would send to `url`: to replay it from outside the browser. */
export async function cookieHeader(context: BrowserContext, url: string): Promise<string> {
  return (await context.cookies(url)).map((c) => `${c.name}=${c.value}`).join('; ');
}
