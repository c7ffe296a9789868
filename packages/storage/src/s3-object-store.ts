import { Client } from 'minio';
import { Readable } from 'node:stream';
import { heldBody } from './held-body';
import type { ObjectStore, StoredObjectInfo } from './object-store';
import { partsOf } from './stream-parts';

/** S3's smallest part but the last; parts of this size let an upload reach 50 GB in 10,000 parts. */
export const S3_MIN_PART_SIZE = 5 * 1024 * 1024;
export const S3_DEFAULT_PART_SIZE = 8 * 1024 * 1024;

export interface S3Options {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** Bytes per part of a multipart upload (at least 5 MiB): what one upload holds in memory at a time. */
  partSize?: number;
}

/**
 * S3-compatible driver (MinIO, AWS S3, any compatible server) through the minio client. A stream is cut
 * into parts as it arrives: a body that ends within its first part goes up in one PUT, a longer one as a
 * multipart upload, one part in memory at a time, aborted if the stream or a part fails. (The client's own
 * putObject of a stream of unknown size would hold parts of 560 MiB and first list the bucket's unfinished
 * uploads to resume one, which some servers do not implement.)
 */
export class S3ObjectStore implements ObjectStore {
  private readonly client: Client;
  private readonly partSize: number;
  private bucketReady: Promise<void> | null = null;

  constructor(private readonly options: S3Options) {
    this.partSize = options.partSize ?? S3_DEFAULT_PART_SIZE;
    if (this.partSize < S3_MIN_PART_SIZE) throw new Error(`S3 part size ${this.partSize} is below S3's minimum of ${S3_MIN_PART_SIZE} bytes`);
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

  async put(key: string, body: Readable | Buffer, contentType = 'application/octet-stream'): Promise<StoredObjectInfo> {
    const source = heldBody(body);
    await this.ensureBucket();
    const headers = { 'Content-Type': contentType };
    const parts = partsOf(source, this.partSize);
    const first = await parts.next();
    const firstPart = first.done ? Buffer.alloc(0) : first.value;
    if (firstPart.length < this.partSize) {
      await this.client.putObject(this.options.bucket, key, firstPart, firstPart.length, headers);
      return { key, size: firstPart.length, contentType };
    }
    const size = await this.putMultipart(key, headers, firstPart, parts);
    return { key, size, contentType };
  }

  /** Uploads the parts in order; any failure aborts the upload, so no unfinished parts stay behind. */
  private async putMultipart(key: string, headers: Record<string, string>, firstPart: Buffer, rest: AsyncGenerator<Buffer>): Promise<number> {
    const { bucket } = this.options;
    const uploadId = await this.client.initiateNewMultipartUpload(bucket, key, headers);
    try {
      const etags: { part: number; etag: string }[] = [];
      let size = 0;
      let partNumber = 0;
      const upload = async (part: Buffer) => {
        partNumber++;
        size += part.length;
        const uploaded = await this.client.uploadPart(
          { bucketName: bucket, objectName: key, uploadID: uploadId, partNumber, headers: { 'Content-Length': part.length } },
          part,
        );
        etags.push({ part: partNumber, etag: uploaded.etag });
      };
      await upload(firstPart);
      for await (const part of rest) await upload(part);
      await this.client.completeMultipartUpload(bucket, key, uploadId, etags);
      return size;
    } catch (error) {
      await this.client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
      throw error;
    }
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
