import { GatewayError } from '@gateway/contracts';

const CRLF = Buffer.from('\r\n');
/** The last four bytes of a header block: the end of its last line and the empty line. */
const END_OF_HEAD = 0x0d0a0d0a;
const LINE_END = 0x0d0a;
const CLOSE_DASHES = 0x2d2d;

export interface PartHeaderLimits {
  /** Header lines one part may carry (MULTIPART_MAX_PART_HEADERS). */
  lines: number;
  /** Bytes of one part's header lines, their line ends included (MULTIPART_PART_HEADER_MAX_BYTES). */
  bytes: number;
}

/** The boundary of a `multipart/*` content-type, or undefined when it names none. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

/**
 * Follows a multipart body's bytes and refuses the first part whose header block has more lines or bytes
 * than allowed. The parser keeps only so much of a part's head and drops the rest without a sign; this
 * sees the raw bytes, so an oversized head is refused however it is cut. Between parts the body is only
 * searched for the delimiter (a native search per chunk); bytes are walked one by one inside heads alone,
 * and a refused head is walked no further than its limit.
 */
export class PartHeaderWatch {
  /** The first refusal, once a part's head went over a limit. */
  refusal: GatewayError | undefined;

  private readonly delimiter: Buffer;
  /** The last bytes seen, short of a whole delimiter: one may start there and end in the next chunk. */
  private carry: Buffer = CRLF;
  /** Stream offset of the current chunk's first byte (the body is read as if it began with CRLF). */
  private offset = 0;
  private delimiterEnd = -Infinity;
  private state: 'body' | 'head' | 'closed' = 'body';
  private headBytes = 0;
  private headLineEnds = 0;
  private tail = 0;

  constructor(
    boundary: string,
    private readonly limits: PartHeaderLimits,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  push(chunk: Buffer): void {
    if (this.closed()) return;
    let pos = 0;
    let first = true;
    for (;;) {
      const start = this.nextDelimiter(chunk, pos, first);
      first = false;
      const segmentEnd = start === undefined ? chunk.length : Math.max(start, pos);
      if (this.state === 'head') this.readHead(chunk, pos, segmentEnd);
      if (start === undefined || this.closed()) break;
      pos = start + this.delimiter.length;
      this.delimiterEnd = this.offset + pos;
      this.state = 'head';
      this.headBytes = 0;
      this.headLineEnds = 0;
      this.tail = 0;
    }
    this.keepCarry(chunk);
    this.offset += chunk.length;
  }

  private closed(): boolean {
    return this.state === 'closed';
  }

  /** Start (in the chunk, negative when it began in the previous chunk) of the next delimiter from `pos`. */
  private nextDelimiter(chunk: Buffer, pos: number, first: boolean): number | undefined {
    if (first && this.carry.length > 0) {
      const joined = Buffer.concat([this.carry, chunk.subarray(0, this.delimiter.length - 1)]);
      for (let at = joined.indexOf(this.delimiter); at !== -1; at = joined.indexOf(this.delimiter, at + 1)) {
        const start = at - this.carry.length;
        if (start >= 0) break;
        if (this.offset + start >= this.delimiterEnd) return start;
      }
    }
    const at = chunk.indexOf(this.delimiter, pos);
    return at === -1 ? undefined : at;
  }

  private readHead(chunk: Buffer, from: number, to: number): void {
    const maxBytes = this.limits.bytes + 4;
    for (let i = from; i < to; i++) {
      this.tail = ((this.tail << 8) | chunk[i]!) >>> 0;
      this.headBytes++;
      if (this.headBytes === 2 && (this.tail & 0xffff) === CLOSE_DASHES) {
        this.state = 'closed';
        return;
      }
      if (this.headBytes > maxBytes)
        return this.refuse(`The multipart part's header block is longer than ${this.limits.bytes} bytes (MULTIPART_PART_HEADER_MAX_BYTES).`);
      if ((this.tail & 0xffff) !== LINE_END) continue;
      this.headLineEnds++;
      if (this.headLineEnds >= 2 && this.tail === END_OF_HEAD) {
        this.state = 'body';
        return;
      }
      // The first line end closes the delimiter's line; each later one closes a header line.
      if (this.headLineEnds - 1 > this.limits.lines)
        return this.refuse(`The multipart part has more than ${this.limits.lines} header lines (MULTIPART_MAX_PART_HEADERS).`);
    }
  }

  private refuse(message: string): void {
    this.refusal = GatewayError.invalid(message, null);
    this.state = 'closed';
  }

  private keepCarry(chunk: Buffer): void {
    const keep = this.delimiter.length - 1;
    const source = chunk.length >= keep ? chunk : Buffer.concat([this.carry, chunk]);
    this.carry = Buffer.from(source.subarray(Math.max(0, source.length - keep)));
  }
}
