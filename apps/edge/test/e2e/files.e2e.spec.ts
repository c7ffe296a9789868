/** Files through the running gateway with the official openai SDK: upload from a stream, list, retrieve, content, delete. */
import { createReadStream } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import OpenAI, { NotFoundError } from 'openai';
import { E2E_FILES_MAX_BYTES } from './support/files-fixtures';
import { baseUrl, bearer, createTenantWithKey, http, openaiClient, type TenantWithKey } from './support/gateway';

const jsonl = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ custom_id: `r${i}`, n: i })).join('\n') + '\n';

/** A multipart upload whose file part streams `bytes` bytes without a declared length; resolves with status and body. */
function chunkedUpload(key: string, bytes: number): Promise<{ status: number; body: string }> {
  const boundary = `----gw${Date.now()}`;
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl()}/oaic/v1/files`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n`);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 7);
    let sent = 0;
    const source = new Readable({
      read() {
        if (sent >= bytes) {
          this.push(`\r\n--${boundary}--\r\n`);
          this.push(null);
          return;
        }
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        this.push(chunk.subarray(0, n));
      },
    });
    source.on('data', (c) => {
      if (!req.write(c)) source.pause();
    });
    req.on('drain', () => source.resume());
    source.on('end', () => req.end());
    req.on('close', () => source.destroy());
  });
}

describe('files', () => {
  let tenant: TenantWithKey;
  let other: TenantWithKey;
  let client: OpenAI;
  let dir: string;

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenantWithKey({ label: 'files' }), createTenantWithKey({ label: 'files-other' })]);
    client = openaiClient(tenant.key);
    dir = await mkdtemp(path.join(os.tmpdir(), 'gw-files-e2e-'));
  });

  it('uploads from a stream, lists, retrieves, streams the content back and deletes', async () => {
    const text = jsonl(500);
    const file = path.join(dir, 'requests.jsonl');
    await writeFile(file, text);
    const created = await client.files.create({ file: createReadStream(file), purpose: 'batch' });
    expect(created).toMatchObject({ object: 'file', bytes: Buffer.byteLength(text), filename: 'requests.jsonl', purpose: 'batch', status: 'processed' });
    expect(created.id).toMatch(/^file-/);
    expect(Math.abs(created.created_at - Date.now() / 1000)).toBeLessThan(60);

    expect(await client.files.retrieve(created.id)).toEqual(created);
    const content = await client.files.content(created.id);
    expect(content.headers.get('content-type')).toContain('application/');
    expect(await content.text()).toBe(text);

    const listed = await client.files.list();
    expect(listed.data.map((f) => f.id)).toContain(created.id);

    expect(await client.files.delete(created.id)).toEqual({ id: created.id, object: 'file', deleted: true });
    await expect(client.files.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.files.content(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists by purpose, in either order, a page at a time', async () => {
    const owner = await createTenantWithKey({ label: 'files-pages' });
    const sdk = openaiClient(owner.key);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await sdk.files.create({ file: new File([`{"i":${i}}\n`], `f${i}.jsonl`), purpose: 'batch' })).id);
    await sdk.files.create({ file: new File(['x'], 'note.txt'), purpose: 'user_data' });

    const asc = await sdk.files.list({ purpose: 'batch', order: 'asc' });
    expect(asc.data.map((f) => f.id)).toEqual(ids);
    const firstPage = await sdk.files.list({ purpose: 'batch', limit: 2 });
    expect(firstPage.data.map((f) => f.id)).toEqual([ids[2], ids[1]]);
    expect(firstPage.hasNextPage()).toBe(true);
    const secondPage = await sdk.files.list({ purpose: 'batch', limit: 2, after: ids[1] });
    expect(secondPage.data.map((f) => f.id)).toEqual([ids[0]]);
    const all: string[] = [];
    for await (const f of sdk.files.list({ limit: 1 })) all.push(f.id);
    expect(all).toHaveLength(4);
  });

  it('refuses a bad purpose and a missing file, naming the field', async () => {
    await expect(client.files.create({ file: new File(['x'], 'a.txt'), purpose: 'nonsense' as 'batch' })).rejects.toMatchObject({
      status: 400,
      error: { param: 'purpose' },
    });
    const noFile = await http('POST', `${baseUrl()}/oaic/v1/files`, { headers: bearer(tenant.key), json: { purpose: 'batch' } });
    expect(noFile.status).toBe(400);
  });

  it('answers 413 naming the file for an upload over FILES_MAX_BYTES, declared or streamed', async () => {
    const limit = E2E_FILES_MAX_BYTES;
    const streamed = await chunkedUpload(tenant.key, limit + 1);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ error: { param: 'file' } });
    await expect(client.files.create({ file: new File([Buffer.alloc(limit + 128 * 1024)], 'big.bin'), purpose: 'batch' })).rejects.toMatchObject({
      status: 413,
    });
    const exact = await chunkedUpload(tenant.key, limit);
    expect(exact.status).toBe(200);
    expect(JSON.parse(exact.body)).toMatchObject({ bytes: limit });
  });

  it("answers another tenant's file id exactly as a missing one", async () => {
    const created = await client.files.create({ file: new File(['secret'], 's.txt'), purpose: 'user_data' });
    const intruder = openaiClient(other.key);
    await expect(intruder.files.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(intruder.files.content(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(intruder.files.delete(created.id)).rejects.toMatchObject({ status: 404 });
    expect((await intruder.files.list()).data.map((f) => f.id)).not.toContain(created.id);
    expect((await client.files.retrieve(created.id)).id).toBe(created.id);
  });
});
