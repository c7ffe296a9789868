// The HTML API reference: Scalar's standalone renderer, served from the edge's own dependencies (no CDN),
// reading the OpenAPI document this edge serves. Nothing it loads leaves the origin (its CSP says so).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

export const REFERENCE_PATHS = {
  page: '/docs',
  renderer: '/docs/scalar.js',
  setup: '/docs/reference.js',
  document: '/docs/openapi.json',
  favicon: '/docs/favicon.svg',
} as const;

/**
 * Scalar's hosted services are all off, so the page works offline and sends nothing elsewhere: web fonts
 * (system fonts instead), telemetry, the AI agent ("Ask AI"), the developer tools and SDK generation
 * ("Generate SDK"), the MCP button, the hosted API client and the request proxy. On a localhost address
 * Scalar turns the agent and the developer tools on unless told not to. "Test request" calls this origin.
 */
const SCALAR_CONFIG = {
  url: REFERENCE_PATHS.document,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  proxyUrl: '',
  defaultOpenAllTags: true,
  showOperationId: true,
  metaData: { title: 'Model gateway API reference' },
};

/**
 * The mount point is not `#api-reference`: the standalone bundle mounts a second, unconfigured reference
 * on an element with that id by itself, and that one loads Scalar's web fonts and shows its agent.
 */
const MOUNT_ID = 'gateway-reference';

export const REFERENCE_SETUP_JS = `Scalar.createApiReference('#${MOUNT_ID}', ${JSON.stringify(SCALAR_CONFIG)});\n`;

/** The gateway's own icon, so the browser asks this origin for nothing it lacks. */
export const REFERENCE_FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f2937"/><path d="M9 11h14M9 16h14M9 21h9" stroke="#f9fafb" stroke-width="2.5" stroke-linecap="round"/></svg>\n';

export const REFERENCE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Model gateway API reference</title>
    <link rel="icon" type="image/svg+xml" href="${REFERENCE_PATHS.favicon}" />
  </head>
  <body>
    <noscript>The reference needs JavaScript; the OpenAPI document itself is at <a href="${REFERENCE_PATHS.document}">${REFERENCE_PATHS.document}</a>.</noscript>
    <div id="${MOUNT_ID}"></div>
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
