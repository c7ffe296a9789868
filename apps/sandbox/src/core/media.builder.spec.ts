import { inflateSync } from 'node:zlib';
import { buildPng, buildWav, WAV_SAMPLE_RATE, wavDurationSeconds } from './media.builder';

function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  const chunks: { type: string; data: Buffer }[] = [];
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    chunks.push({ type: png.toString('ascii', offset + 4, offset + 8), data: png.subarray(offset + 8, offset + 8 + length) });
    offset += 12 + length;
  }
  return chunks;
}

describe('media builders', () => {
  it('builds a decodable PNG of the requested size', () => {
    const png = buildPng('a cat', 16);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const chunks = pngChunks(png);
    expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(chunks[0]!.data.readUInt32BE(0)).toBe(16);
    expect(inflateSync(chunks[1]!.data).length).toBe(16 * (1 + 16 * 3));
    expect(buildPng('a cat')).toEqual(png);
    expect(buildPng('a dog')).not.toEqual(png);
  });

  it('builds a PCM WAV whose header states its length', () => {
    const wav = buildWav('hello', 0.5);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(WAV_SAMPLE_RATE);
    expect(wav.length).toBe(44 + 0.5 * WAV_SAMPLE_RATE * 2);
    expect(wavDurationSeconds(wav)).toBeCloseTo(0.5, 5);
    expect(wavDurationSeconds(Buffer.from('not audio at all, just some text bytes here....'))).toBeNull();
  });
});
