import { Client } from 'minio';
import { Readable } from 'node:stream';
import { heldBody } from './held-body';
import type { ObjectStore, StoredObjectInfo } from './object-store';

export interface S3Options {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
}

/** S3-compatible driver (MinIO, AWS S3, any compatible server) through the minio client. */
export class S3ObjectStore implements ObjectStore {
  private readonly client: Client;
  private bucketReady: Promise<void> | null = null;

  constructor(private readonly options: S3Options) {
    const url = new URL(options.endpoint);
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      useSSL: url.protocol === 'https:',
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region ?? 'us-east-1',
      pathStyle: true,
    });
  }

  private ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      const exists = await this.client.bucketExists(this.options.bucket);
      if (!exists) await this.client.makeBucket(this.options.bucket, this.options.region ?? 'us-east-1');
    })();
    return this.bucketReady;
  }

  async put(key: string, body: Readable | Buffer, contentType = 'application/octet-stream', size?: number): Promise<StoredObjectInfo> {
    const length = Buffer.isBuffer(body) ? body.length : size;
    const source = Buffer.isBuffer(body) ? body : heldBody(body);
    await this.ensureBucket();
    await this.client.putObject(this.options.bucket, key, source, length, { 'Content-Type': contentType });
    const info = await this.stat(key);
    return info ?? { key, size: 0, contentType };
  }

  async get(key: string): Promise<Readable> {
    await this.ensureBucket();
    return this.client.getObject(this.options.bucket, key);
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    await this.ensureBucket();
    try {
      const info = await this.client.statObject(this.options.bucket, key);
      return { key, size: info.size, contentType: String(info.metaData?.['content-type'] ?? 'application/octet-stream') };
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFound' || (error as { code?: string }).code === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.ensureBucket();
    await this.client.removeObject(this.options.bucket, key);
  }
}
