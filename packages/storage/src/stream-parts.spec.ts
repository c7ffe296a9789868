import { Readable } from 'node:stream';
import { partsOf } from './stream-parts';

async function collect(chunks: Buffer[], partSize: number): Promise<number[]> {
  const sizes: number[] = [];
  for await (const part of partsOf(Readable.from(chunks), partSize)) sizes.push(part.length);
  return sizes;
}

describe('partsOf', () => {
  it('cuts chunks of any size into parts of exactly the part size, the last one shorter', async () => {
    expect(await collect([Buffer.alloc(3), Buffer.alloc(9), Buffer.alloc(1)], 5)).toEqual([5, 5, 3]);
    expect(await collect([Buffer.alloc(10)], 5)).toEqual([5, 5]);
    expect(await collect([Buffer.alloc(2)], 5)).toEqual([2]);
    expect(await collect([], 5)).toEqual([]);
  });

  it('keeps the bytes in order', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    const chunks = [bytes.subarray(0, 7), bytes.subarray(7, 500), bytes.subarray(500)];
    const parts: Buffer[] = [];
    for await (const part of partsOf(Readable.from(chunks), 64)) parts.push(part);
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
  });

  it('reads the next part only when asked', async () => {
    let pulled = 0;
    const source = new Readable({
      highWaterMark: 1,
      read() {
        pulled++;
        this.push(pulled > 100 ? null : Buffer.alloc(10));
      },
    });
    const parts = partsOf(source, 20);
    await parts.next();
    expect(pulled).toBeLessThan(10);
    await parts.return(undefined);
  });
});
