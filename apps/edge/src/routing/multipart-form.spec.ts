import { GatewayError } from '@gateway/contracts';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { FormCounter, parserLimits } from './multipart-form';
import { boundaryOf, PartHeaderWatch } from './part-header-watch';

const limits = { fields: 3, parts: 5, fieldBytes: 100, partHeaders: 8, partHeaderBytes: 200 };
const field = (fieldname: string, extra: { valueTruncated?: boolean; fieldnameTruncated?: boolean } = {}) => ({ type: 'field' as const, fieldname, ...extra });
const file = (fieldname = 'file') => ({ type: 'file' as const, fieldname });

function refusal(take: () => void): GatewayError | undefined {
  try {
    take();
    return undefined;
  } catch (error) {
    return error as GatewayError;
  }
}

describe('FormCounter', () => {
  it('refuses the first field over MULTIPART_MAX_FIELDS, naming it and the limit', () => {
    const counter = new FormCounter(limits);
    for (const name of ['a', 'b', 'c']) counter.take(field(name));
    const error = refusal(() => counter.take(field('d')));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'invalid_request', param: 'd', message: 'The multipart form has more than 3 text fields (MULTIPART_MAX_FIELDS).' });
  });

  it('counts files toward MULTIPART_MAX_PARTS but not toward the fields', () => {
    const counter = new FormCounter(limits);
    counter.take(field('a'));
    for (let i = 0; i < 4; i++) counter.take(file());
    expect(refusal(() => counter.take(file('x')))?.message).toBe('The multipart form has more than 5 parts (MULTIPART_MAX_PARTS).');
  });

  it('refuses a field the parser cut at MULTIPART_FIELD_MAX_BYTES', () => {
    expect(refusal(() => new FormCounter(limits).take(field('prompt', { valueTruncated: true })))?.message).toBe(
      'The multipart field is longer than 100 bytes (MULTIPART_FIELD_MAX_BYTES).',
    );
  });

  it('sets the parser one above each count, so the first part over a limit still reaches the counter', () => {
    expect(parserLimits(limits, { fileSize: 10, files: 1 })).toEqual({
      fields: 4,
      parts: 6,
      fieldSize: 100,
      headerPairs: 8,
      headerSize: 200,
      fileSize: 10,
      files: 1,
    });
  });
});

const B = 'xyzboundary';
const lines = (count: number) => Array.from({ length: count }, (_, i) => `x-h${i}: v\r\n`).join('');
const part = (headLines: string, body = 'value') => `--${B}\r\ncontent-disposition: form-data; name="a"\r\n${headLines}\r\n${body}\r\n`;
const close = `--${B}--\r\n`;

/** Feeds the body to a fresh watch in chunks of `size` bytes and returns its refusal's message. */
function watched(body: string | Buffer, size = Infinity, headLimits = { lines: 8, bytes: 200 }): string | undefined {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const watch = new PartHeaderWatch(B, headLimits);
  const step = Math.min(size, bytes.length || 1);
  for (let at = 0; at < bytes.length; at += step) watch.push(bytes.subarray(at, at + step));
  return watch.refusal?.message;
}

describe('PartHeaderWatch', () => {
  const tooManyLines = 'The multipart part has more than 8 header lines (MULTIPART_MAX_PART_HEADERS).';
  const tooLong = "The multipart part's header block is longer than 200 bytes (MULTIPART_PART_HEADER_MAX_BYTES).";

  it.each([1, 2, 3, 7, 1000])('passes a form whose heads are within the limits, read %i bytes at a time', (size) => {
    // content-disposition and 7 more lines: 8 lines in all.
    expect(watched(part(lines(7)) + part('') + part(lines(7), 'x'.repeat(5000)) + close, size)).toBeUndefined();
  });

  it.each([1, 2, 3, 7, 1000])('refuses a part with one header line too many, read %i bytes at a time', (size) => {
    expect(watched(part('') + part(lines(8)) + close, size)).toBe(tooManyLines);
  });

  it('refuses the line too many before the head ends (a client may never end it)', () => {
    expect(watched(`--${B}\r\n${lines(9)}`)).toBe(tooManyLines);
  });

  it.each([1, 5, 1000])('takes a head of exactly the byte limit and refuses one byte more, read %i bytes at a time', (size) => {
    const disposition = 'content-disposition: form-data; name="a"\r\n';
    const padTo = (bytes: number) => `x-pad: ${'p'.repeat(bytes - disposition.length - 'x-pad: \r\n'.length)}\r\n`;
    const form = (headBytes: number) => `--${B}\r\n${disposition}${padTo(headBytes)}\r\nv\r\n${close}`;
    expect(watched(form(200), size)).toBeUndefined();
    expect(watched(form(201), size)).toBe(tooLong);
  });

  it('refuses a head over the byte limit that never ends, after reading no more than the limit', () => {
    expect(watched(`--${B}\r\nx-pad: ${'p'.repeat(300)}`)).toBe(tooLong);
    expect(watched(`--${B}\r\nx-pad: ${'p'.repeat(150)}`)).toBeUndefined();
  });

  it('leaves alone what looks like a head in a part body, the preamble and the epilogue', () => {
    const inBody = `no delimiter here\r\n${lines(20)}\r\n`;
    expect(watched(`${lines(20)}\r\n${part('', inBody)}${close}${lines(20)}--${B}\r\n${lines(20)}`, 4)).toBeUndefined();
  });

  it('follows a delimiter split across chunks at every point', () => {
    const body = part('') + part(lines(9));
    for (let cut = 1; cut < body.length; cut++) {
      const watch = new PartHeaderWatch(B, { lines: 8, bytes: 200 });
      watch.push(Buffer.from(body.slice(0, cut)));
      watch.push(Buffer.from(body.slice(cut)));
      expect({ cut, refusal: watch.refusal?.message }).toEqual({ cut, refusal: tooManyLines });
    }
  });

  it('reads the boundary from the content-type, quoted or not', () => {
    expect(boundaryOf(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(boundaryOf('multipart/form-data; charset=utf-8; Boundary="a b\\"c"')).toBe('a b"c');
    expect(boundaryOf('multipart/form-data')).toBeUndefined();
  });
});

describe('FormCounter.read', () => {
  function request(): PassThrough {
    return Object.assign(new PassThrough(), { headers: { 'content-type': `multipart/form-data; boundary=${B}` } });
  }
  const counterOn = (raw: PassThrough) => new FormCounter(limits, raw as unknown as IncomingMessage);

  /** Parts that come only when released: like the parser waiting on a head that has not ended. */
  function waitingParts(): { parts: AsyncIterable<{ type: 'field'; fieldname: string }>; release: () => void } {
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    async function* parts() {
      await released;
      yield { type: 'field' as const, fieldname: 'a' };
    }
    return { parts: parts(), release };
  }

  it('ends with the refusal as soon as the body shows an oversized head, while the parser still waits', async () => {
    const raw = request();
    const counter = counterOn(raw);
    const { parts } = waitingParts();
    const reading = (async () => {
      for await (const p of counter.read(parts)) counter.take(p);
    })();
    raw.resume();
    raw.write(Buffer.from(`--${B}\r\n${lines(9)}`));
    await expect(reading).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('(MULTIPART_MAX_PART_HEADERS)') });
    expect(raw.listenerCount('data')).toBe(0);
  });

  it('refuses a part the parser announces after an oversized head, and a form whose oversized head it skipped', async () => {
    const raw = request();
    const counter = counterOn(raw);
    raw.on('data', () => undefined);
    raw.write(Buffer.from(`--${B}\r\nx-pad: ${'p'.repeat(300)}\r\n\r\n`));
    expect(refusal(() => counter.take(field('a')))?.message).toContain('(MULTIPART_PART_HEADER_MAX_BYTES)');

    const skipped = request();
    const quiet = counterOn(skipped);
    skipped.on('data', () => undefined);
    skipped.write(Buffer.from(`--${B}\r\n${lines(9)}\r\n`));
    async function* none() {}
    await expect(
      (async () => {
        for await (const p of quiet.read(none())) quiet.take(p);
      })(),
    ).rejects.toMatchObject({ message: expect.stringContaining('(MULTIPART_MAX_PART_HEADERS)') });
    expect(skipped.listenerCount('data')).toBe(1);
  });

  it('reads a form with ordinary heads to its end and stops watching', async () => {
    const raw = request();
    const counter = counterOn(raw);
    raw.on('data', () => undefined);
    raw.write(Buffer.from(part(lines(3)) + close));
    const { parts, release } = waitingParts();
    release();
    const names: string[] = [];
    for await (const p of counter.read(parts)) {
      counter.take(p);
      names.push(p.fieldname);
    }
    expect(names).toEqual(['a']);
    expect(raw.listenerCount('data')).toBe(1);
  });
});
