import { mkdtemp, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from '@20minutes/s3rver';
import { createObjectStore, LocalObjectStore, S3_MIN_PART_SIZE, S3ObjectStore, StorageEnv, type ObjectStore } from '../src';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** The same behaviour is asked of every driver. */
function behavesLikeAnObjectStore(name: string, open: () => ObjectStore) {
  describe(name, () => {
    it('stores a stream and gives the same bytes back with their content type', async () => {
      const store = open();
      const bytes = Buffer.from(Array.from({ length: 256 * 1024 }, (_, i) => i % 251));
      const info = await store.put('uploads/a/clip.wav', Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), 'audio/wav', bytes.length);
      expect(info).toEqual({ key: 'uploads/a/clip.wav', size: bytes.length, contentType: 'audio/wav' });
      expect(await store.stat('uploads/a/clip.wav')).toEqual(info);
      expect((await readAll(await store.get('uploads/a/clip.wav'))).equals(bytes)).toBe(true);
    });

    it('stores a buffer, then deletes it', async () => {
      const store = open();
      await store.put('claims/x.json', Buffer.from('{"a":1}'), 'application/json');
      await store.delete('claims/x.json');
      expect(await store.stat('claims/x.json')).toBeNull();
    });

    it('fails a put whose source failed before the driver read it, instead of waiting for ever', async () => {
      const store = open();
      // As a multipart part cut short does: the parser listens for its own error, emits it once and never ends the part.
      const source = new Readable({ read: () => undefined });
      source.on('error', () => undefined);
      source.push('abc');
      const put = store.put('uploads/a/cut.wav', source, 'audio/wav');
      source.emit('error', new Error('Part terminated early'));
      const outcome = await Promise.race([
        put.then(
          () => 'stored',
          (error: Error) => error.message,
        ),
        new Promise((resolve) => setTimeout(resolve, 2000, 'still waiting')),
      ]);
      // The local driver names the source's error; the test S3 server may refuse the unsized upload first.
      expect(['stored', 'still waiting']).not.toContain(outcome);
    });

    it('reports a missing object as null on stat and as an error on get', async () => {
      const store = open();
      expect(await store.stat('nothing/here')).toBeNull();
      await expect(store.get('nothing/here')).rejects.toBeDefined();
    });
  });
}

describe('object storage drivers', () => {
  let localDir: string;
  let s3Dir: string;
  let s3: S3rver;
  let endpoint: string;

  beforeAll(async () => {
    localDir = await mkdtemp(path.join(os.tmpdir(), 'gw-local-store-'));
    s3Dir = await mkdtemp(path.join(os.tmpdir(), 'gw-s3rver-'));
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
    const address = (await s3.run()) as AddressInfo;
    endpoint = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    await s3.close();
    await rm(localDir, { recursive: true, force: true });
    await rm(s3Dir, { recursive: true, force: true });
  });

  behavesLikeAnObjectStore('local folder', () => new LocalObjectStore(localDir));
  behavesLikeAnObjectStore('S3-compatible server', () => new S3ObjectStore({ endpoint, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'gateway-test' }));

  it('refuses a key that would leave the local folder', async () => {
    await expect(new LocalObjectStore(localDir).put('../escape', Buffer.from('x'))).rejects.toThrow('leaves the storage folder');
    // Inside the folder but climbing out of its prefix: refused too, nothing written.
    await expect(new LocalObjectStore(localDir).put('speech/../speech-sibling-probe', Buffer.from('x'))).rejects.toThrow('segments');
    await expect(stat(path.join(localDir, 'speech-sibling-probe'))).rejects.toThrow();
  });

  it('uploads a stream of unknown size larger than a part to the S3 server as a multipart upload', async () => {
    const store = new S3ObjectStore({ endpoint, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'gateway-test', partSize: S3_MIN_PART_SIZE });
    const total = 2 * S3_MIN_PART_SIZE + 12345;
    let sent = 0;
    const source = new Readable({
      read() {
        if (sent >= total) return void this.push(null);
        const n = Math.min(256 * 1024, total - sent);
        this.push(Buffer.alloc(n, sent % 251));
        sent += n;
      },
    });
    const info = await store.put('uploads/big/stream.bin', source, 'application/octet-stream');
    expect(info).toEqual({ key: 'uploads/big/stream.bin', size: total, contentType: 'application/octet-stream' });
    expect(await store.stat('uploads/big/stream.bin')).toEqual(info);
    const back = await readAll(await store.get('uploads/big/stream.bin'));
    expect(back.length).toBe(total);
    expect(back[0]).toBe(0);
    expect(back[total - 1]).toBe((Math.floor((total - 1) / (256 * 1024)) * 256 * 1024) % 251);
  });

  it('aborts a multipart upload whose stream fails after its first part, leaving no object', async () => {
    const store = new S3ObjectStore({ endpoint, accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'gateway-test', partSize: S3_MIN_PART_SIZE });
    let sent = 0;
    const source = new Readable({
      read() {
        if (sent > S3_MIN_PART_SIZE + 1024) return void this.destroy(new Error('client went away'));
        this.push(Buffer.alloc(64 * 1024, 1));
        sent += 64 * 1024;
      },
    });
    await expect(store.put('uploads/big/cut.bin', source)).rejects.toThrow('client went away');
    expect(await store.stat('uploads/big/cut.bin')).toBeNull();
  });

  it('refuses a part size below what S3 accepts', () => {
    expect(() => new S3ObjectStore({ endpoint, accessKey: 'a', secretKey: 'b', bucket: 'gateway-test', partSize: 1024 })).toThrow('minimum');
    expect(StorageEnv.safeParse({ S3_PART_SIZE: '1024' }).success).toBe(false);
  });

  it('is refused by the S3 server when the secret is wrong (signatures are checked)', async () => {
    const store = new S3ObjectStore({ endpoint, accessKey: 'S3RVER', secretKey: 'not-the-secret', bucket: 'gateway-test-2' });
    await expect(store.put('a', Buffer.from('x'))).rejects.toBeDefined();
  });

  it('picks the driver from the environment and names missing S3 credentials', () => {
    expect(createObjectStore(StorageEnv.parse({ STORAGE_DIR: localDir }))).toBeInstanceOf(LocalObjectStore);
    expect(createObjectStore(StorageEnv.parse({ S3_ENDPOINT: endpoint, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER' }))).toBeInstanceOf(S3ObjectStore);
    const result = StorageEnv.safeParse({ S3_ENDPOINT: endpoint });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path[0])).toEqual(['S3_ACCESS_KEY', 'S3_SECRET_KEY']);
  });
});
