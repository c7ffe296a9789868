import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';

/** POST /oaic/v1/audio/speech (spec 4.6): JSON in, audio bytes out. */
export const SpeechRequest = z.looseObject({
  model: RequestModelName,
  input: z.string().min(1).max(4096),
  voice: z.string().min(1),
  response_format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).optional(),
  speed: z.number().min(0.25).max(4).optional(),
});
export type SpeechRequest = z.infer<typeof SpeechRequest>;

/** Text fields of the multipart transcription/translation upload; `file` travels as a stored object. */
export const TranscriptionFields = z.looseObject({
  model: RequestModelName,
  language: z.string().optional(),
  prompt: z.string().optional(),
  response_format: z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt']).optional(),
  temperature: z.coerce.number().min(0).max(1).optional(),
});
export type TranscriptionFields = z.infer<typeof TranscriptionFields>;

export const TranslationFields = TranscriptionFields.omit({ language: true });
export type TranslationFields = z.infer<typeof TranslationFields>;

/** A transcription or translation as JSON (`json`, `verbose_json`); the other formats answer plain text. */
export const TranscriptionResponse = z
  .looseObject({
    text: z.string(),
    language: z.string().optional(),
    duration: z.number().optional(),
    segments: z.array(z.looseObject({})).optional(),
  })
  .describe('A transcription (or translation) of the audio');
export type TranscriptionResponse = z.infer<typeof TranscriptionResponse>;
