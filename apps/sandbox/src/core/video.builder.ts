// A small, structurally valid MP4 (ISO BMFF: ftyp, moov with a movie header of the given duration, mdat)
// whose payload depends on a seed, so every task's video differs and is checkable byte for byte.
import { hash32 } from './tokenizer';

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'ascii');
  return Buffer.concat([head, body]);
}

function movieHeader(seconds: number): Buffer {
  const mvhd = Buffer.alloc(100);
  const timescale = 1000;
  mvhd.writeUInt32BE(0, 0); // version 0, flags
  mvhd.writeUInt32BE(timescale, 12);
  mvhd.writeUInt32BE(Math.round(seconds * timescale), 16);
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  // Identity matrix.
  mvhd.writeUInt32BE(0x00010000, 36);
  mvhd.writeUInt32BE(0x00010000, 52);
  mvhd.writeUInt32BE(0x40000000, 68);
  mvhd.writeUInt32BE(2, 96); // next track id
  return box('mvhd', mvhd);
}

export function buildMp4(seed: string, seconds: number): Buffer {
  const ftyp = box('ftyp', Buffer.from('isom', 'ascii'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'ascii'));
  const payload = Buffer.alloc(256);
  let h = hash32(seed);
  for (let i = 0; i < payload.length; i += 4) {
    h = (Math.imul(h, 1664525) + 1013904223) >>> 0;
    payload.writeUInt32BE(h, i);
  }
  return Buffer.concat([ftyp, box('moov', movieHeader(seconds)), box('mdat', payload)]);
}
