import type { Readable } from 'node:stream';

export interface StoredObjectInfo {
  key: string;
  size: number;
  contentType: string;
}

/** Object storage behind one interface: bytes go in and out as streams, callers hold only keys. */
export interface ObjectStore {
  /** Streams `body` in without holding it whole; `size` is a hint the drivers may ignore (they count what they store). */
  put(key: string, body: Readable | Buffer, contentType?: string, size?: number): Promise<StoredObjectInfo>;
  get(key: string): Promise<Readable>;
  stat(key: string): Promise<StoredObjectInfo | null>;
  delete(key: string): Promise<void>;
}
