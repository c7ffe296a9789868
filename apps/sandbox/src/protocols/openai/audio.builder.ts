// Pure builders for audio: speech as a WAV tone whose length follows the input, and transcripts derived
// from the uploaded file's name and size, in each response_format the API offers.
import { buildPcm, buildWav, wavDurationSeconds } from '../../core/media.builder';
import { countTokens } from '../../core/tokenizer';
import type { SpeechRequest, TranscriptionFormat } from './openai.schemas';

const SECONDS_PER_TOKEN = 0.05;
const MAX_SPEECH_SECONDS = 2;

export function speechAudio(request: SpeechRequest): { contentType: string; bytes: Buffer } {
  const seconds = Math.min(MAX_SPEECH_SECONDS, Math.max(0.1, countTokens(request.input) * SECONDS_PER_TOKEN));
  // PCM is the one raw format we can honour exactly; every other request gets a WAV labelled as such.
  if (request.response_format === 'pcm') return { contentType: 'audio/pcm', bytes: buildPcm(request.input, seconds) };
  return { contentType: 'audio/wav', bytes: buildWav(request.input, seconds) };
}

export interface TranscriptSource {
  task: 'transcribe' | 'translate';
  filename: string;
  bytes: Buffer;
  language?: string;
}

export function transcriptText(source: TranscriptSource): { text: string; seconds: number } {
  const seconds = wavDurationSeconds(source.bytes) ?? Math.max(1, source.bytes.length / 16000);
  const verb = source.task === 'transcribe' ? 'Transcribed' : 'Translated';
  return { text: `${verb} ${source.filename} (${source.bytes.length} bytes).`, seconds: Number(seconds.toFixed(3)) };
}

function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** The reply for `format`: a JSON object, or text with its content type. */
export function transcriptReply(
  source: TranscriptSource,
  format: TranscriptionFormat,
): { kind: 'json'; body: Record<string, unknown> } | { kind: 'text'; contentType: string; body: string } {
  const { text, seconds } = transcriptText(source);
  switch (format) {
    case 'json':
      return { kind: 'json', body: { text, usage: { type: 'duration', seconds: Math.ceil(seconds) } } };
    case 'verbose_json':
      return {
        kind: 'json',
        body: {
          task: source.task,
          language: source.task === 'translate' ? 'english' : (source.language ?? 'english'),
          duration: seconds,
          text,
          segments: [
            { id: 0, seek: 0, start: 0, end: seconds, text, tokens: [], temperature: 0, avg_logprob: -0.1, compression_ratio: 1, no_speech_prob: 0.01 },
          ],
          usage: { type: 'duration', seconds: Math.ceil(seconds) },
        },
      };
    case 'text':
      return { kind: 'text', contentType: 'text/plain; charset=utf-8', body: `${text}\n` };
    case 'srt':
      return { kind: 'text', contentType: 'text/plain; charset=utf-8', body: `1\n${timestamp(0, ',')} --> ${timestamp(seconds, ',')}\n${text}\n\n` };
    case 'vtt':
      return { kind: 'text', contentType: 'text/vtt; charset=utf-8', body: `WEBVTT\n\n${timestamp(0, '.')} --> ${timestamp(seconds, '.')}\n${text}\n\n` };
  }
}
