import { z } from 'zod';

const KEY_BYTES = 32;
const KeyId = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'a key id is 1 to 32 letters, digits, "_" or "-"');

/** Why a key or a segment cannot be used; the message names the setting and never a key's bytes. */
export class RequestLogKeyError extends Error {
  override readonly name = 'RequestLogKeyError';
}

/**
 * The keys request-log segments are sealed with, from `LOG_ENCRYPTION_KEY`: `id:base64` pairs separated
 * by commas, each key 32 bytes (AES-256). The first seals new segments; the others still open the
 * segments sealed under them, so a key can rotate without re-sealing what is stored.
 */
export class LogKeyRing {
  private constructor(
    readonly currentId: string,
    private readonly keys: ReadonlyMap<string, Buffer>,
  ) {}

  static parse(setting: string, variable = 'LOG_ENCRYPTION_KEY'): LogKeyRing {
    const keys = new Map<string, Buffer>();
    const entries = setting
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length === 0) throw new RequestLogKeyError(`${variable} holds no key: set it to "<id>:<32 bytes in base64>"`);
    for (const [index, entry] of entries.entries()) {
      const colon = entry.indexOf(':');
      if (colon < 0) throw new RequestLogKeyError(`${variable}, key ${index + 1}: expected "<id>:<32 bytes in base64>"`);
      const id = KeyId.safeParse(entry.slice(0, colon));
      if (!id.success) throw new RequestLogKeyError(`${variable}, key ${index + 1}: ${id.error.issues[0]?.message}`);
      const bytes = Buffer.from(entry.slice(colon + 1), 'base64');
      if (bytes.length !== KEY_BYTES) {
        throw new RequestLogKeyError(`${variable}, key '${id.data}': decodes to ${bytes.length} bytes from base64, AES-256 needs ${KEY_BYTES}`);
      }
      if (keys.has(id.data)) throw new RequestLogKeyError(`${variable}: the key id '${id.data}' appears twice`);
      keys.set(id.data, bytes);
    }
    return new LogKeyRing(entries[0]!.slice(0, entries[0]!.indexOf(':')), keys);
  }

  get current(): Buffer {
    return this.keys.get(this.currentId)!;
  }

  key(id: string): Buffer | undefined {
    return this.keys.get(id);
  }

  get ids(): string[] {
    return [...this.keys.keys()];
  }
}
