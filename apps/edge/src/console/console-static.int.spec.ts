/**
 * The console's static files on both real listeners: thirty spellings of a way out of the assets folder
 * (encoded dots and slashes, double encoding, backslashes, overlong UTF-8, NUL, `..;/`) are refused, every
 * page answer carries its CSP with `frame-ancestors 'none'` and X-Frame-Options DENY, and only
 * content-hashed assets are cached for good.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startTestEdge, type TestEdge } from '../testing/start-test-edge';

const PAGE_MARK = 'console-page-under-test';
const HASHED = 'main-abc12345.js';

/** Ways out of /console/assets/ toward the page (index.html), a file beside it, or one outside the build. */
const TRAVERSALS = [
  '%2e%2e%2findex.html',
  '%2E%2E%2Findex.html',
  '..%2findex.html',
  '..%2Findex.html',
  '%2e%2e/index.html',
  '%2e./index.html',
  '.%2e/index.html',
  '../index.html',
  './index.html',
  '..%2f..%2fsecret.txt',
  '%2e%2e%2f%2e%2e%2f%2e%2e%2foutside.txt',
  '%252e%252e%252findex.html',
  '..%252findex.html',
  '..\\index.html',
  '..%5cindex.html',
  '%5c..%5cindex.html',
  '%2e%2e%5c%2e%2e%5csecret.txt',
  '..%255cindex.html',
  '%c0%ae%c0%ae%c0%afindex.html',
  '%c0%ae%c0%ae/index.html',
  '..%c0%afindex.html',
  '..%c1%9cindex.html',
  '%e0%80%ae%e0%80%ae%2findex.html',
  '..%ef%bc%8findex.html',
  '..%u2216index.html',
  'index.html%00.js',
  `${HASHED}%00`,
  '..;/index.html',
  '..%3b/index.html',
  '....//index.html',
];

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A GET with the path sent byte for byte as written (no URL parser normalises it first). */
function rawGet(base: string, rawPath: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = http.request({ host: hostname, port, path: rawPath, method: 'GET', agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

function expectUnframeable(answer: Answer): void {
  expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(answer.headers['x-frame-options']).toBe('DENY');
}

describe('console static files on both listeners', () => {
  let t: TestEdge;
  const root = mkdtempSync(path.join(os.tmpdir(), 'console-static-'));
  const dist = path.join(root, 'dist');
  const listeners = () =>
    [
      ['public', t.edge.url],
      ['admin', t.edge.adminUrl],
    ] as const;

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html><head><meta name="console-side" content="tenant" /></head><body>${PAGE_MARK}</body></html>`,
    );
    writeFileSync(path.join(dist, 'secret.txt'), 'beside the build');
    writeFileSync(path.join(root, 'outside.txt'), 'outside the build');
    writeFileSync(path.join(dist, 'assets', HASHED), 'console.log(1);');
    writeFileSync(path.join(dist, 'assets', 'notes.txt'), 'not hashed');
    process.env.CONSOLE_DIST_DIR = dist;
    t = await startTestEdge({ ADMIN_TOKEN: 'admin-secret' });
  });

  afterAll(async () => {
    await t?.stop();
    delete process.env.CONSOLE_DIST_DIR;
    rmSync(root, { recursive: true, force: true });
  });

  it.each(TRAVERSALS)('refuses /console/assets/%s on both listeners', async (spelling) => {
    for (const [side, base] of listeners()) {
      const answer = await rawGet(base, `/console/assets/${spelling}`);
      expect({ side, spelling, status: answer.status, refused: [400, 404].includes(answer.status) }).toMatchObject({ refused: true });
      expect(answer.text).not.toContain(PAGE_MARK);
      expect(answer.text).not.toMatch(/beside the build|outside the build/);
      expect(String(answer.headers['cache-control'] ?? '')).not.toContain('immutable');
    }
  });

  it('never answers the page without its CSP, whatever the spelling under /console', async () => {
    const spellings = [
      '/console/%2e%2e%2fassets%2f' + HASHED,
      '/console/..%2f..%2fdocs',
      '/console/x/..%5c..%5cindex.html',
      '/console/%2e%2e;/keys',
      '/console//keys',
      '/%63onsole/keys',
    ];
    for (const [side, base] of listeners()) {
      for (const spelling of spellings) {
        const answer = await rawGet(base, spelling);
        if (answer.text.includes(PAGE_MARK)) expectUnframeable(answer);
        expect(`${side} ${spelling} ${String(answer.headers['cache-control'] ?? '')}`).not.toContain('immutable');
      }
    }
  });

  it('gives every console page answer, and every refusal, its CSP with frame-ancestors none and X-Frame-Options DENY', async () => {
    const pages = ['/console', '/console/', '/console/keys', '/console/sign-in?error=sso_failed', '/console/tenants/acme', '/console/index.html'];
    for (const [, base] of listeners()) {
      for (const page of pages) {
        const answer = await rawGet(base, page);
        expect({ page, status: answer.status, type: answer.headers['content-type'] }).toEqual({ page, status: 200, type: 'text/html; charset=utf-8' });
        expect(answer.text).toContain(PAGE_MARK);
        expectUnframeable(answer);
        expect(answer.headers['cache-control']).toBe('no-cache');
      }
      const refused = await rawGet(base, '/console/assets/%2e%2e%2findex.html');
      expectUnframeable(refused);
    }
  });

  it('caches a content-hashed asset for good, and nothing else', async () => {
    for (const [, base] of listeners()) {
      const hashed = await rawGet(base, `/console/assets/${HASHED}`);
      expect(hashed.status).toBe(200);
      expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(hashed.headers['x-content-type-options']).toBe('nosniff');
      const plain = await rawGet(base, '/console/assets/notes.txt');
      expect(plain.status).toBe(200);
      expect(plain.headers['cache-control']).toBe('no-cache');
      const index = await rawGet(base, '/console/index.html');
      expect(index.headers['cache-control']).toBe('no-cache');
      expect((await rawGet(base, '/console/assets/missing-abc12345.js')).status).toBe(404);
    }
  });
});
