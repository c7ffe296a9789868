import { maxAudioSeconds, reportedAudioUsage, wavSeconds } from './audio-duration';

/** A PCM WAV header: `rate` samples a second, 16-bit mono, `dataBytes` of samples. */
function wavHeader(rate: number, dataBytes: number, extraChunk = false): Buffer {
  const list = extraChunk ? Buffer.concat([Buffer.from('LIST'), Buffer.from([4, 0, 0, 0]), Buffer.from('INFO')]) : Buffer.alloc(0);
  const header = Buffer.alloc(36);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(Math.min(0xffffffff, 36 + list.length + dataBytes), 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  const data = Buffer.alloc(8);
  data.write('data', 0, 'ascii');
  data.writeUInt32LE(dataBytes, 4);
  return Buffer.concat([header, list, data]);
}

describe('audio duration', () => {
  it('reads a WAV header: data bytes over the byte rate, past other chunks', () => {
    const head = wavHeader(16_000, 96_000);
    expect(wavSeconds(head, head.length + 96_000)).toBe(3);
    const listed = wavHeader(8_000, 8_000, true);
    expect(wavSeconds(listed, listed.length + 8_000)).toBe(0.5);
  });

  it('never counts more data than the file holds', () => {
    const head = wavHeader(16_000, 0xffffffff);
    expect(wavSeconds(head, head.length + 32_000)).toBe(1);
  });

  it('bounds other containers by their size at 8 kbit/s', () => {
    expect(wavSeconds(Buffer.from('ID3\u0003 mp3 bytes'), 50_000)).toBeNull();
    expect(maxAudioSeconds(Buffer.from('ID3'), 50_000)).toBe(50);
    const head = wavHeader(16_000, 32_000);
    expect(maxAudioSeconds(head, head.length + 32_000)).toBe(1);
  });

  it('takes what the upstream metered: seconds, tokens, or the verbose duration', () => {
    expect(reportedAudioUsage({ text: 'hi', usage: { type: 'duration', seconds: 9 } })).toEqual({ seconds: 9 });
    expect(reportedAudioUsage({ text: 'hi', usage: { type: 'tokens', input_tokens: 14, output_tokens: 45 } })).toEqual({ inputTokens: 14, outputTokens: 45 });
    expect(reportedAudioUsage({ text: 'hi', duration: 8.47 })).toEqual({ seconds: 8.47 });
    expect(reportedAudioUsage('plain text')).toBeNull();
    expect(reportedAudioUsage({ text: 'hi' })).toBeNull();
  });
});
