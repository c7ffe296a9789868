import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Takes hold of an upload's stream at once, before the driver's first await. A source that fails while
 * no one reads it yet (a multipart part cut short, a client gone) would otherwise report its error to
 * nobody and never end, leaving the put waiting for ever; held, the failure reaches whoever reads later.
 */
export function heldBody(body: Readable | Buffer): Readable {
  if (Buffer.isBuffer(body)) return Readable.from([body]);
  // As much as the drivers buffer on their side (LocalObjectStore's write stream): the hop adds no extra pause.
  const held = new PassThrough({ highWaterMark: 1024 * 1024 });
  // A source ended and then destroyed before its end was read (a multipart parser giving up on a part)
  // never ends nor fails a pipeline, which waits for that end: closing without it fails the upload.
  body.once('close', () => {
    if (!body.readableEnded) held.destroy(new Error('the upload stream closed before its end'));
  });
  pipeline(body, held).catch((error: unknown) => held.destroy(error instanceof Error ? error : new Error(String(error))));
  return held;
}
