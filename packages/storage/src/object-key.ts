/**
 * Object keys are built here and nowhere else: slash-joined segments of letters, digits, `.`, `_` and
 * `-`, never `.` or `..`, so no part of a key (a server id, a tenant id, a sanitised client file name)
 * can climb out of its prefix or into another request's objects.
 */
const SEGMENT = /^[A-Za-z0-9._-]{1,255}$/;

export function isKeySegment(segment: string): boolean {
  return SEGMENT.test(segment) && segment !== '.' && segment !== '..';
}

/** Joins validated segments into a key; any invalid segment is a bug in the caller, so it throws. */
export function objectKey(...segments: string[]): string {
  if (segments.length === 0) throw new Error('an object key needs at least one segment');
  for (const segment of segments) {
    if (!isKeySegment(segment)) throw new Error(`object key segment ${JSON.stringify(segment)} is not [A-Za-z0-9._-]+ (and not . or ..)`);
  }
  return segments.join('/');
}

export function isObjectKey(key: string): boolean {
  return key.split('/').every(isKeySegment);
}

/**
 * Turns text a client chose (a file name) into one segment: other characters become `_`, the length is
 * capped, and a name of nothing but dots becomes `fallback`.
 */
export function keySegmentOf(text: string, fallback: string, maxLength = 100): string {
  const cleaned = text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, maxLength);
  return /^\.*$/.test(cleaned) ? fallback : cleaned;
}
