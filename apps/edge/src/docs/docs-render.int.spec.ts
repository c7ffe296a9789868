/**
 * The reference as a browser renders it: Debian's headless Chromium loads /docs from a listener serving the
 * docs routes, runs the renderer under the page's CSP, and the DOM it leaves has a section for every built
 * route and every answer schema. CHROMIUM_PATH names the browser (/usr/bin/chromium by default).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BUILT_ROUTES, REPLY_SCHEMAS } from '@gateway/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerDocsRoutes } from './docs.routes';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function renderedDom(url: string): Promise<string> {
  const profile = mkdtempSync(path.join(tmpdir(), 'docs-render-'));
  try {
    const { stdout } = await promisify(execFile)(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        `--user-data-dir=${profile}`,
        '--virtual-time-budget=10000',
        '--dump-dom',
        url,
      ],
      { timeout: 100_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

describe('the API reference in a browser', () => {
  let fastify: FastifyInstance;
  let dom: string;

  beforeAll(async () => {
    fastify = Fastify();
    registerDocsRoutes(fastify);
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    dom = await renderedDom(`${base}/docs`);
  }, 120_000);

  afterAll(() => fastify.close());

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
