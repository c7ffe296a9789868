/**
 * The reference as a browser renders it: Debian's headless Chromium (driven by playwright-core) loads /docs
 * from a listener serving the docs routes and runs the renderer under the page's CSP. It records every
 * request the page makes and every console error: the page stays on its own origin with none, shows no
 * control of Scalar's hosted services, and renders a section for every built route and answer schema.
 * CHROMIUM_PATH names the browser (/usr/bin/chromium by default).
 */
import { BUILT_ROUTES, REPLY_SCHEMAS } from '@gateway/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { registerDocsRoutes } from './docs.routes';
import { launchHeadlessChromium } from '../testing/headless-chromium';

/** Controls of Scalar's hosted services (its agent, SDK generation, MCP, the hosted client), as the page would label them. */
const HOSTED_CONTROLS = [/Ask AI/i, /Agent Scalar/i, /Generate SDK/i, /\bMCP\b/, /Developer Tools/i, /Open API Client/i];

describe('the API reference in a browser', () => {
  let fastify: FastifyInstance;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const requests: string[] = [];
  const errors: string[] = [];
  let dom: string;

  beforeAll(async () => {
    fastify = Fastify();
    registerDocsRoutes(fastify);
    origin = await fastify.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchHeadlessChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // Nothing leaves the machine; a foreign request is still recorded (and then refused) before this answers.
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort(),
    );
    page = await context.newPage();
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/docs`, { waitUntil: 'load', timeout: 100_000 });
    const lastRoute = BUILT_ROUTES[BUILT_ROUTES.length - 1]!;
    await page.locator(`[id="api-1/tag/${lastRoute.family}/${lastRoute.method}${lastRoute.path}"]`).waitFor({ state: 'attached', timeout: 100_000 });
    await page.waitForLoadState('networkidle', { timeout: 30_000 });
    dom = await page.content();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await fastify?.close();
  });

  it('loads only from its own origin, with no console error', () => {
    expect(requests.length).toBeGreaterThanOrEqual(4);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(requests).toContain(`${origin}/docs/favicon.svg`);
    expect(errors).toEqual([]);
  });

  it('shows no control of Scalar’s hosted services (agent, Ask AI, SDK generation, MCP, hosted client)', async () => {
    for (const label of HOSTED_CONTROLS)
      expect({ label: String(label), shown: await page.getByText(label).count() }).toEqual({ label: String(label), shown: 0 });
    expect(await page.getByRole('button', { name: /Test Request/i }).count()).toBeGreaterThan(0);
  });

  it('keeps to its own origin when the test-request client opens', async () => {
    await page
      .getByRole('button', { name: /Test Request/i })
      .first()
      .click();
    await page.getByRole('button', { name: /Send/ }).first().waitFor();
    await page.waitForLoadState('networkidle', { timeout: 30_000 });
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(errors).toEqual([]);
    for (const label of HOSTED_CONTROLS)
      expect({ label: String(label), shown: await page.getByText(label).count() }).toEqual({ label: String(label), shown: 0 });
  });

  it('renders a section for every built route, under its family', () => {
    const ids = new Set([...dom.matchAll(/id="([^"]+)"/g)].map((m) => m[1]));
    const missing = BUILT_ROUTES.filter((r) => !ids.has(`api-1/tag/${r.family}/${r.method}${r.path}`)).map((r) => `${r.method} ${r.path}`);
    expect(BUILT_ROUTES.length).toBeGreaterThan(80);
    expect(missing).toEqual([]);
  });

  it('renders every answer schema the document names', () => {
    expect(Object.keys(REPLY_SCHEMAS).filter((name) => !dom.includes(name))).toEqual([]);
  });
});
