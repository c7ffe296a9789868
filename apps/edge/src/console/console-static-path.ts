import { z } from 'zod';

/** A built asset's file name: letters, digits, dots, dashes and underscores, never a dot segment. */
const AssetName = z
  .string()
  .regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/)
  .refine((name) => !name.includes('..'));

/** Vite's content-hashed names (`index-Dz1q5xI1.js`): their bytes never change under the same name. */
const HASHED_ASSET = /^[A-Za-z0-9._-]+-[A-Za-z0-9_-]{8}\.(?:js|css|woff2?|svg|png|webp|jpe?g|ico|map)$/;

/** One raw path segment decoded once; null when it is malformed, or decodes to a separator, a control character or `%`. */
function decodedSegment(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (/[/\\%;\u0000-\u001f\u007f]/.test(decoded)) return null;
  return decoded === '.' || decoded === '..' ? null : decoded;
}

/**
 * The page path of a raw request path under /console, decoded and checked: null for encoded slashes,
 * backslashes, dot segments, double encoding, `;` parameters, control characters or empty inner segments.
 */
export function consolePagePath(rawUrl: string): string | null {
  const pathname = rawUrl.split('?')[0]!;
  if (pathname !== '/console' && !pathname.startsWith('/console/')) return null;
  const segments = pathname.split('/').slice(2);
  const decoded: string[] = [];
  for (const [index, raw] of segments.entries()) {
    if (raw === '' && index < segments.length - 1) return null;
    const segment = decodedSegment(raw);
    if (segment === null) return null;
    decoded.push(segment);
  }
  return ['', 'console', ...decoded].join('/');
}

/** The asset a raw request path names (`/console/assets/<name>`), or null when it names none safely. */
export function consoleAssetName(rawUrl: string): string | null {
  const page = consolePagePath(rawUrl);
  if (page === null || !page.startsWith('/console/assets/')) return null;
  const parsed = AssetName.safeParse(page.slice('/console/assets/'.length));
  return parsed.success ? parsed.data : null;
}

/** Only content-hashed names may be cached for good; anything else is checked again on each use. */
export function isHashedAssetName(name: string): boolean {
  return HASHED_ASSET.test(name);
}
