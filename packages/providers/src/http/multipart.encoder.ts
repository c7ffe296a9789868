// A streaming multipart/form-data encoder: text fields and one file whose bytes flow from a Readable
// straight into the upstream request, never buffered whole in memory.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  data: Readable | Buffer;
}

export interface MultipartBody {
  contentType: string;
  body: Readable;
}

function quote(value: string): string {
  return value.replace(/["\r\n\\]/g, (ch) => encodeURIComponent(ch));
}

/** `fields` as name/value pairs so a name may repeat (`timestamp_granularities[]`). */
export function encodeMultipart(fields: ReadonlyArray<readonly [string, string]>, file: MultipartFile): MultipartBody {
  const boundary = `----gateway${randomBytes(12).toString('hex')}`;
  async function* parts(): AsyncGenerator<Buffer> {
    for (const [name, value] of fields) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`);
    }
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
    );
    if (Buffer.isBuffer(file.data)) yield file.data;
    else for await (const chunk of file.data) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Readable.from(parts(), { objectMode: false }) };
}
