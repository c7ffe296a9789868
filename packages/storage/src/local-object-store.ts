import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { heldBody } from './held-body';
import { isObjectKey } from './object-key';
import type { ObjectStore, StoredObjectInfo } from './object-store';

/**
 * Bytes an object's file stream buffers before it asks its source to wait. The default (16 KiB) is a
 * quarter of one socket read, so every chunk of an upload paused the socket until the disk write was
 * done; 1 MiB lets the next chunks arrive while one is written.
 */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/** The zero-setup driver: objects as files under one folder, the content type in a sidecar file. */
export class LocalObjectStore implements ObjectStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`object key "${key}" leaves the storage folder`);
    if (!isObjectKey(key)) throw new Error(`object key "${key}" is not made of [A-Za-z0-9._-] segments (see objectKey)`);
    return resolved;
  }

  async put(key: string, body: Readable | Buffer, contentType = 'application/octet-stream'): Promise<StoredObjectInfo> {
    const file = this.file(key);
    const source = heldBody(body);
    await mkdir(path.dirname(file), { recursive: true });
    await pipeline(source, createWriteStream(file, { highWaterMark: WRITE_BUFFER_BYTES }));
    await writeFile(`${file}.meta`, contentType);
    const { size } = await stat(file);
    return { key, size, contentType };
  }

  async get(key: string): Promise<Readable> {
    const file = this.file(key);
    await stat(file);
    return createReadStream(file);
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    const file = this.file(key);
    try {
      const { size } = await stat(file);
      const contentType = await readFile(`${file}.meta`, 'utf8').catch(() => 'application/octet-stream');
      return { key, size, contentType };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await rm(file, { force: true });
    await rm(`${file}.meta`, { force: true });
  }
}
