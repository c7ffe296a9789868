import { GatewayError } from '@gateway/contracts';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { EdgeEnv } from '../config/edge-env';
import { boundaryOf, PartHeaderWatch } from './part-header-watch';

/** What one multipart form may hold; each limit is named, with its variable, in the 400 that enforces it. */
export interface MultipartLimits {
  fields: number;
  parts: number;
  fieldBytes: number;
  partHeaders: number;
  partHeaderBytes: number;
}

export function multipartLimitsOf(
  env: Pick<
    EdgeEnv,
    'MULTIPART_MAX_FIELDS' | 'MULTIPART_MAX_PARTS' | 'MULTIPART_FIELD_MAX_BYTES' | 'MULTIPART_MAX_PART_HEADERS' | 'MULTIPART_PART_HEADER_MAX_BYTES'
  >,
): MultipartLimits {
  return {
    fields: env.MULTIPART_MAX_FIELDS,
    parts: env.MULTIPART_MAX_PARTS,
    fieldBytes: env.MULTIPART_FIELD_MAX_BYTES,
    partHeaders: env.MULTIPART_MAX_PART_HEADERS,
    partHeaderBytes: env.MULTIPART_PART_HEADER_MAX_BYTES,
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
    // The parser drops header lines and bytes past these without a sign; PartHeaderWatch refuses such a head.
    headerPairs: limits.partHeaders,
    headerSize: limits.partHeaderBytes,
    fileSize: file.fileSize,
    files: file.files,
  };
}

type CountedPart = { type: 'file'; fieldname: string } | { type: 'field'; fieldname: string; valueTruncated?: boolean; fieldnameTruncated?: boolean };

/**
 * Counts a form's parts as they are read and refuses the first one over a limit. Given the request, it
 * also follows the body's bytes for part heads over MULTIPART_MAX_PART_HEADERS or
 * MULTIPART_PART_HEADER_MAX_BYTES, which the parser would cut without a sign: read the parts through
 * `read`, which ends with that refusal as soon as it is seen, even while the parser still waits for bytes.
 */
export class FormCounter {
  private fields = 0;
  private parts = 0;
  private readonly heads: PartHeaderWatch | undefined;
  private readonly refused: Promise<GatewayError> | undefined;
  private readonly onData: ((chunk: Buffer) => void) | undefined;

  constructor(
    private readonly limits: MultipartLimits,
    private readonly request?: IncomingMessage,
  ) {
    const boundary = request ? boundaryOf(request.headers['content-type']) : undefined;
    if (!request || boundary === undefined) return;
    const heads = new PartHeaderWatch(boundary, { lines: limits.partHeaders, bytes: limits.partHeaderBytes });
    let refuse: (error: GatewayError) => void = () => undefined;
    this.refused = new Promise<GatewayError>((resolve) => (refuse = resolve));
    this.onData = (chunk: Buffer) => {
      heads.push(chunk);
      if (!heads.refusal) return;
      this.stopWatching();
      refuse(heads.refusal);
    };
    this.heads = heads;
    // First among the body's readers: a head is judged before the parser announces its part.
    request.prependListener('data', this.onData);
  }

  /** The parts, ending with a refusal of an oversized part head as soon as the body shows one. */
  async *read<P>(parts: AsyncIterable<P>): AsyncGenerator<P> {
    const iterator = parts[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = this.refused ? await Promise.race([iterator.next(), this.refused]) : await iterator.next();
        if (next instanceof GatewayError) throw next;
        if (next.done) break;
        yield next.value;
      }
      this.checkHeads();
    } catch (error) {
      // A head cut by the parser can make it fail or end early: the refusal says what happened.
      this.checkHeads();
      throw error;
    } finally {
      this.stopWatching();
      void iterator.return?.()?.catch(() => undefined);
    }
  }

  take(part: CountedPart): void {
    this.checkHeads();
    if (++this.parts > this.limits.parts)
      throw GatewayError.invalid(`The multipart form has more than ${this.limits.parts} parts (MULTIPART_MAX_PARTS).`, part.fieldname || null);
    if (part.type !== 'field') return;
    if (++this.fields > this.limits.fields)
      throw GatewayError.invalid(`The multipart form has more than ${this.limits.fields} text fields (MULTIPART_MAX_FIELDS).`, part.fieldname || null);
    if (part.valueTruncated || part.fieldnameTruncated)
      throw GatewayError.invalid(`The multipart field is longer than ${this.limits.fieldBytes} bytes (MULTIPART_FIELD_MAX_BYTES).`, part.fieldname || null);
  }

  private checkHeads(): void {
    if (this.heads?.refusal) throw this.heads.refusal;
  }

  private stopWatching(): void {
    if (this.onData) this.request?.off('data', this.onData);
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

/**
 * Calls `onCut` when a file part is cut short: with its own error, or when it closes before its end
 * (the parser gave up on a form that ended early, without an error of its own).
 */
export function onCutShort(file: Readable, onCut: (error: Error) => void): void {
  file.once('error', onCut);
  file.once('close', () => {
    if (!file.readableEnded) onCut(new Error('the form ended before its file part did'));
  });
}
