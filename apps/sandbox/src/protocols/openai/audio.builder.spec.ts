import { buildWav } from '../../core/media.builder';
import { speechAudio, transcriptReply } from './audio.builder';
import { SpeechRequest } from './openai.schemas';

describe('audio builders', () => {
  it('speaks WAV, or raw PCM when asked', () => {
    const wav = speechAudio(SpeechRequest.parse({ model: 't', input: 'hello there world', voice: 'alloy' }));
    expect(wav.contentType).toBe('audio/wav');
    expect(wav.bytes.toString('ascii', 8, 12)).toBe('WAVE');
    const pcm = speechAudio(SpeechRequest.parse({ model: 't', input: 'hello there world', voice: 'alloy', response_format: 'pcm' }));
    expect(pcm.contentType).toBe('audio/pcm');
    expect(pcm.bytes.length).toBe(wav.bytes.length - 44);
  });

  it('transcribes from the file name, size and WAV duration in each format', () => {
    const source = { task: 'transcribe' as const, filename: 'a.wav', bytes: buildWav('x', 1.5) };
    expect(transcriptReply(source, 'json')).toEqual({
      kind: 'json',
      body: { text: `Transcribed a.wav (${source.bytes.length} bytes).`, usage: { type: 'duration', seconds: 2 } },
    });
    expect(transcriptReply(source, 'verbose_json')).toMatchObject({ kind: 'json', body: { duration: 1.5, task: 'transcribe' } });
    expect(transcriptReply(source, 'text')).toMatchObject({ kind: 'text', body: `Transcribed a.wav (${source.bytes.length} bytes).\n` });
    expect(transcriptReply(source, 'srt')).toMatchObject({ kind: 'text', body: expect.stringContaining('00:00:00,000 --> 00:00:01,500') });
    expect(transcriptReply({ ...source, task: 'translate' }, 'vtt')).toMatchObject({
      kind: 'text',
      contentType: 'text/vtt; charset=utf-8',
      body: expect.stringMatching(/^WEBVTT\n\n00:00:00\.000 --> 00:00:01\.500\nTranslated a\.wav/),
    });
  });
});
