import type { Readable } from 'node:stream';

/**
 * Cuts a stream into parts of exactly `partSize` bytes (the last one shorter), holding at most one part
 * at a time: the next one is read only once the caller asks for it, so an upload of any size buffers one
 * part, never the whole body.
 */
export async function* partsOf(source: Readable, partSize: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of source) {
    let rest = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    while (heldBytes + rest.length >= partSize) {
      const take = partSize - heldBytes;
      held.push(rest.subarray(0, take));
      yield Buffer.concat(held, partSize);
      rest = rest.subarray(take);
      held = [];
      heldBytes = 0;
    }
    if (rest.length > 0) {
      held.push(rest);
      heldBytes += rest.length;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held, heldBytes);
}
