import { GatewayError } from '@gateway/contracts';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { EdgeEnv } from '../config/edge-env';

/** What one multipart form may hold; each limit is named, with its variable, in the 400 that enforces it. */
export interface MultipartLimits {
  fields: number;
  parts: number;
  fieldBytes: number;
  partHeaders: number;
}

export function multipartLimitsOf(
  env: Pick<EdgeEnv, 'MULTIPART_MAX_FIELDS' | 'MULTIPART_MAX_PARTS' | 'MULTIPART_FIELD_MAX_BYTES' | 'MULTIPART_MAX_PART_HEADERS'>,
): MultipartLimits {
  return {
    fields: env.MULTIPART_MAX_FIELDS,
    parts: env.MULTIPART_MAX_PARTS,
    fieldBytes: env.MULTIPART_FIELD_MAX_BYTES,
    partHeaders: env.MULTIPART_MAX_PART_HEADERS,
  };
}

/**
 * The parser's own limits: one above ours for counts, so the form's first part over a limit still reaches
 * the reader, which refuses it with a 400. The parser's limit events instead stop reading the request
 * while a later file part may be waiting on it, and that part would then never end.
 */
export function parserLimits(limits: MultipartLimits, file: { fileSize: number; files: number }) {
  return {
    fields: limits.fields + 1,
    parts: limits.parts + 1,
    fieldSize: limits.fieldBytes,
    // Header lines past this are dropped by the parser: a part's head stays small whatever is sent.
    headerPairs: limits.partHeaders,
    fileSize: file.fileSize,
    files: file.files,
  };
}

type CountedPart = { type: 'file'; fieldname: string } | { type: 'field'; fieldname: string; valueTruncated?: boolean; fieldnameTruncated?: boolean };

/** Counts a form's parts as they are read and refuses the first one over a limit. */
export class FormCounter {
  private fields = 0;
  private parts = 0;

  constructor(private readonly limits: MultipartLimits) {}

  take(part: CountedPart): void {
    if (++this.parts > this.limits.parts)
      throw GatewayError.invalid(`The multipart form has more than ${this.limits.parts} parts (MULTIPART_MAX_PARTS).`, part.fieldname || null);
    if (part.type !== 'field') return;
    if (++this.fields > this.limits.fields)
      throw GatewayError.invalid(`The multipart form has more than ${this.limits.fields} text fields (MULTIPART_MAX_FIELDS).`, part.fieldname || null);
    if (part.valueTruncated || part.fieldnameTruncated)
      throw GatewayError.invalid(`The multipart field is longer than ${this.limits.fieldBytes} bytes (MULTIPART_FIELD_MAX_BYTES).`, part.fieldname || null);
  }
}

/**
 * Ends a file part's stream with an error when the connection closes before the part ended (client gone,
 * request timeout): the storage write it feeds then fails, closes its descriptor and is removed. Returns
 * the function that stops watching.
 */
export function failWithConnection(raw: IncomingMessage, file: Readable): () => void {
  const socket = raw.socket;
  const onClose = () => {
    if (!file.readableEnded && !file.destroyed) file.destroy(new Error('the connection closed before the file part ended'));
  };
  if (socket.destroyed) onClose();
  else socket.once('close', onClose);
  return () => socket.off('close', onClose);
}
