// The HTML API reference: Scalar's standalone renderer, served from the edge's own dependencies (no CDN),
// reading the OpenAPI document this edge serves. Nothing it loads leaves the origin (its CSP says so).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

export const REFERENCE_PATHS = { page: '/docs', renderer: '/docs/scalar.js', setup: '/docs/reference.js', document: '/docs/openapi.json' } as const;

/**
 * Fonts, telemetry, the AI agent and the request proxy are Scalar's hosted services: all off, so the page
 * works offline and sends nothing elsewhere. "Test request" calls this origin directly.
 */
const SCALAR_CONFIG = {
  url: REFERENCE_PATHS.document,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  proxyUrl: '',
  hideClientButton: false,
  defaultOpenAllTags: true,
  showOperationId: true,
  metaData: { title: 'Model gateway API reference' },
};

export const REFERENCE_SETUP_JS = `Scalar.createApiReference('#api-reference', ${JSON.stringify(SCALAR_CONFIG)});\n`;

export const REFERENCE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Model gateway API reference</title>
  </head>
  <body>
    <noscript>The reference needs JavaScript; the OpenAPI document itself is at <a href="${REFERENCE_PATHS.document}">${REFERENCE_PATHS.document}</a>.</noscript>
    <div id="api-reference"></div>
    <script src="${REFERENCE_PATHS.renderer}"></script>
    <script src="${REFERENCE_PATHS.setup}"></script>
  </body>
</html>
`;

/** Same origin only; inline styles are the renderer's own (its components set them). */
export const REFERENCE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Where the standalone bundle sits in the installed package (it is not an export of the package, so found beside its entry). */
export function scalarBundlePath(): string {
  return path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
}

export interface RendererBundle {
  plain: Buffer;
  gzipped: Buffer;
}

/** Read and compressed once, off the event loop, on the first request for it. */
export function rendererBundle(file = scalarBundlePath()): () => Promise<RendererBundle> {
  let loaded: Promise<RendererBundle> | undefined;
  return () =>
    (loaded ??= (async () => {
      const plain = await readFile(file);
      return { plain, gzipped: await promisify(gzip)(plain) };
    })().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}
