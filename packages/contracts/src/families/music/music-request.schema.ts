// The music family's request bodies (spec 4.13), one schema per route. Fields the spec leaves open
// follow the Suno-style API the family mirrors. Texts longer than the family's limits are a 413
// (music-text-limits.ts), not a 400, so the schemas bound nothing but types and shapes.
import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';
import { publicUrl } from '../../url-policy';

/** A task id as the gateway hands it out (and as a client may send it back). */
export const MusicTaskId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a task id returned by a music route');
/** An upstream audio (track) id, as the task's results name it. */
export const MusicAudioId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'an audioId from the source task’s results');
/** The receiver of the task's callbacks; whether its address is acceptable is the music service's to judge. */
export const CallBackUrl = z.string().min(1).max(2048);

const Text = z.string().min(1);
const Seconds = z.number().min(0).max(3600);

const Callback = { callBackUrl: CallBackUrl };
const OptionalModel = { model: RequestModelName.optional() };
const SourceAudio = { taskId: MusicTaskId, audioId: MusicAudioId };

export const MusicGenerateRequest = z
  .object({
    customMode: z.boolean(),
    instrumental: z.boolean(),
    model: RequestModelName,
    callBackUrl: CallBackUrl,
    prompt: z.string().optional(),
    style: z.string().optional(),
    title: z.string().optional(),
    personaId: z.string().min(1).max(128).optional(),
    negativeTags: z.string().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.customMode) {
      if (!body.style) ctx.addIssue({ code: 'custom', path: ['style'], message: 'required in custom mode (customMode: true)' });
      if (!body.title) ctx.addIssue({ code: 'custom', path: ['title'], message: 'required in custom mode (customMode: true)' });
      if (!body.instrumental && !body.prompt)
        ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'the lyrics are required in custom mode unless instrumental' });
    } else if (!body.prompt) {
      ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'required in simple mode (customMode: false)' });
    }
  });

export const MusicExtendRequest = z.object({
  ...SourceAudio,
  ...Callback,
  ...OptionalModel,
  continueAt: Seconds,
  prompt: z.string().optional(),
  style: z.string().optional(),
  title: z.string().optional(),
});

export const MusicUploadCoverRequest = z.object({
  ...Callback,
  ...OptionalModel,
  uploadUrl: publicUrl(),
  style: Text,
  title: Text,
  prompt: z.string().optional(),
  instrumental: z.boolean().optional(),
});

export const MusicUploadExtendRequest = z.object({
  ...Callback,
  ...OptionalModel,
  uploadUrl: publicUrl(),
  continueAt: Seconds,
  prompt: z.string().optional(),
  style: z.string().optional(),
  title: z.string().optional(),
});

/** Routes that work on a source: an earlier task's track, or an uploaded audio URL. */
function withSource<T extends z.ZodRawShape>(shape: T) {
  return z
    .object({ ...shape, ...Callback, ...OptionalModel, taskId: MusicTaskId.optional(), audioId: MusicAudioId.optional(), uploadUrl: publicUrl().optional() })
    .superRefine((raw, ctx) => {
      const body = raw as { taskId?: string; audioId?: string; uploadUrl?: string };
      const fromTask = body.taskId !== undefined || body.audioId !== undefined;
      if (fromTask && body.uploadUrl !== undefined)
        ctx.addIssue({ code: 'custom', path: ['uploadUrl'], message: 'give either taskId and audioId, or uploadUrl, not both' });
      else if (!fromTask && body.uploadUrl === undefined)
        ctx.addIssue({ code: 'custom', path: ['uploadUrl'], message: 'a source is required: taskId and audioId, or uploadUrl' });
      else if (fromTask && body.taskId === undefined) ctx.addIssue({ code: 'custom', path: ['taskId'], message: 'required with audioId' });
      else if (fromTask && body.audioId === undefined) ctx.addIssue({ code: 'custom', path: ['audioId'], message: 'required with taskId' });
    });
}

export const MusicAddVocalsRequest = withSource({
  prompt: Text,
  style: z.string().optional(),
  title: z.string().optional(),
  negativeTags: z.string().optional(),
});
export const MusicAddInstrumentalRequest = withSource({ style: Text, title: z.string().optional(), negativeTags: z.string().optional() });

export const MusicVocalRemovalRequest = z.object({ ...SourceAudio, ...Callback, ...OptionalModel, type: z.enum(['separate_vocal', 'split_stem']).optional() });
export const MusicSplitStemRequest = z.object({ ...SourceAudio, ...Callback, ...OptionalModel });

export const MusicReplaceSectionRequest = z
  .object({
    ...SourceAudio,
    ...Callback,
    ...OptionalModel,
    prompt: Text,
    style: z.string().optional(),
    title: z.string().optional(),
    infillStartS: Seconds,
    infillEndS: Seconds,
  })
  .refine((body) => body.infillEndS > body.infillStartS, { path: ['infillEndS'], message: 'must be after infillStartS' });

export const MusicWavRequest = z.object({ ...SourceAudio, ...Callback, ...OptionalModel });
export const MusicMp4Request = z.object({ ...SourceAudio, ...Callback, ...OptionalModel, author: z.string().max(100).optional() });
export const MusicLyricsRequest = z.object({ ...Callback, ...OptionalModel, prompt: Text });
export const MusicTimestampedLyricsRequest = z.object({ ...SourceAudio, ...Callback, ...OptionalModel });
export const MusicStyleRequest = z.object({ ...Callback, ...OptionalModel, content: Text });
export const MusicCoverArtRequest = z.object({ ...Callback, ...OptionalModel, taskId: MusicTaskId });
export const MusicPersonaRequest = z.object({ ...SourceAudio, ...Callback, ...OptionalModel, name: Text.max(100), description: Text.max(1000) });

export const MusicQuery = z.object({ taskId: MusicTaskId });
export type MusicQuery = z.infer<typeof MusicQuery>;
