// Small, valid media files derived from a seed: a PNG (solid colour with a diagonal) and a PCM WAV tone.
import { deflateSync } from 'node:zlib';
import { hash32 } from './tokenizer';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An RGB PNG of `size`×`size` pixels whose colour depends on `seed`. */
export function buildPng(seed: string, size = 16): Buffer {
  const h = hash32(seed);
  const color = [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const onDiagonal = x === y;
      for (let c = 0; c < 3; c++) row[1 + x * 3 + c] = onDiagonal ? 255 - color[c]! : color[c]!;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const WAV_SAMPLE_RATE = 8000;

/** 16-bit mono PCM samples of a tone whose pitch depends on `seed`. */
export function buildPcm(seed: string, seconds: number): Buffer {
  const samples = Math.max(1, Math.round(seconds * WAV_SAMPLE_RATE));
  const frequency = 220 + (hash32(seed) % 440);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * frequency * i) / WAV_SAMPLE_RATE)), i * 2);
  }
  return pcm;
}

export function buildWav(seed: string, seconds: number): Buffer {
  const pcm = buildPcm(seed, seconds);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(WAV_SAMPLE_RATE, 24);
  header.writeUInt32LE(WAV_SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/** Duration in seconds of a PCM WAV, or null when the bytes are not one. */
export function wavDurationSeconds(bytes: Buffer): number | null {
  if (bytes.length < 44 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return null;
  const byteRate = bytes.readUInt32LE(28);
  if (byteRate === 0) return null;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'data') return Math.min(size, bytes.length - offset - 8) / byteRate;
    offset += 8 + size + (size % 2);
  }
  return null;
}
