/**
 * Stored bytes are served on the gateway's own origin, so they must never act as a page there: only
 * known inert types are kept (anything else is `application/octet-stream`), and every answer that
 * carries stored bytes is marked not to be sniffed, to be downloaded, and sandboxed.
 */
const SAFE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'application/octet-stream',
  'application/json',
  'application/jsonl',
  'application/x-ndjson',
  'application/pdf',
  'text/plain',
  'text/csv',
  'text/markdown',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/heic',
  'audio/mpeg',
  'audio/mp4',
  'audio/aac',
  'audio/wav',
  'audio/x-wav',
  'audio/ogg',
  'audio/opus',
  'audio/flac',
  'audio/webm',
  'video/mp4',
  'video/webm',
  'video/quicktime',
]);

/** A type a player may show inline (a media result); everything else is a download. */
const PLAYABLE = /^(image|audio|video)\//;

/** The claimed type without parameters when it is a known inert type, else `application/octet-stream`. */
export function safeContentType(claimed: string | undefined | null): string {
  const bare = (claimed ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return SAFE_CONTENT_TYPES.has(bare) ? bare : 'application/octet-stream';
}

export interface ServedObjectOptions {
  /** A media result a player needs inline; honoured only for image, audio and video types. */
  inline?: boolean;
}

/** The headers of an answer carrying stored bytes: the type made safe, nosniff, a disposition and a sandbox. */
export function servedObjectHeaders(contentType: string, options: ServedObjectOptions = {}): Record<string, string> {
  const type = safeContentType(contentType);
  const inline = options.inline === true && PLAYABLE.test(type);
  return {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'content-disposition': inline ? 'inline' : 'attachment',
    'content-security-policy': 'sandbox',
  };
}
