import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { RequestLogKeyError, type LogKeyRing } from './log-key-ring';

/**
 * A sealed segment: `GWLS` and a format version, the key id's length and the key id, a 12-byte nonce,
 * the 16-byte GCM tag, then the Brotli-compressed content encrypted with AES-256-GCM. The header up to
 * the nonce is authenticated too, so a segment cannot be relabelled with another key id.
 */
const MAGIC = Buffer.from('GWLS');
const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

function header(keyId: string): Buffer {
  const id = Buffer.from(keyId, 'utf8');
  return Buffer.concat([MAGIC, Buffer.from([VERSION, id.length]), id]);
}

/** Compresses and encrypts a segment's content under the ring's current key. */
export function sealSegment(content: Buffer, ring: LogKeyRing): Buffer {
  const head = header(ring.currentId);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', ring.current, nonce);
  cipher.setAAD(head);
  const compressed = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  const encrypted = Buffer.concat([cipher.update(compressed), cipher.final()]);
  return Buffer.concat([head, nonce, cipher.getAuthTag(), encrypted]);
}

/** The key id a sealed segment names (without opening it). */
export function segmentKeyId(sealed: Buffer): string {
  if (sealed.length < MAGIC.length + 2 || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new RequestLogKeyError('not a sealed request-log segment (its first bytes are not GWLS)');
  }
  if (sealed[MAGIC.length] !== VERSION) throw new RequestLogKeyError(`a request-log segment of format ${sealed[MAGIC.length]}, this gateway reads ${VERSION}`);
  const idLength = sealed[MAGIC.length + 1]!;
  return sealed.subarray(MAGIC.length + 2, MAGIC.length + 2 + idLength).toString('utf8');
}

/** Decrypts and decompresses a sealed segment; a missing or wrong key is a `RequestLogKeyError` saying which. */
export function openSegment(sealed: Buffer, ring: LogKeyRing, variable = 'LOG_ENCRYPTION_KEY'): Buffer {
  const keyId = segmentKeyId(sealed);
  const key = ring.key(keyId);
  if (!key)
    throw new RequestLogKeyError(
      `the segment is sealed under key '${keyId}', which ${variable} does not hold (it holds ${ring.ids.map((id) => `'${id}'`).join(', ')})`,
    );
  const headLength = MAGIC.length + 2 + Buffer.byteLength(keyId, 'utf8');
  const nonce = sealed.subarray(headLength, headLength + NONCE_BYTES);
  const tag = sealed.subarray(headLength + NONCE_BYTES, headLength + NONCE_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(sealed.subarray(0, headLength));
  decipher.setAuthTag(tag);
  let compressed: Buffer;
  try {
    compressed = Buffer.concat([decipher.update(sealed.subarray(headLength + NONCE_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new RequestLogKeyError(
      `the segment does not open under ${variable}'s key '${keyId}': the key is not the one it was sealed with, or the segment is damaged`,
    );
  }
  return brotliDecompressSync(compressed);
}
