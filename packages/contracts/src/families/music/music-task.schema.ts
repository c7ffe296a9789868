// Music tasks between the edge and the music service: payloads, the task view the query
// routes answer with, and the `{code, msg, data}` envelope of the family.
import { z } from 'zod';
import { TenantCaller } from '../tenant-caller.schema';
import { MUSIC_QUERY_KINDS, MUSIC_VERBS, type MusicVerb } from './music-routes';
import { MusicTaskId } from './music-request.schema';

export const MusicTaskStatus = z.enum(['PENDING', 'TEXT_SUCCESS', 'FIRST_SUCCESS', 'SUCCESS', 'CREATE_TASK_FAILED', 'GENERATE_AUDIO_FAILED']);
export type MusicTaskStatus = z.infer<typeof MusicTaskStatus>;

export const MusicCreatePayload = TenantCaller.extend({ verb: z.enum(MUSIC_VERBS as [MusicVerb, ...MusicVerb[]]), body: z.record(z.string(), z.unknown()) });
export type MusicCreatePayload = z.infer<typeof MusicCreatePayload>;

export const MusicQueryPayload = z.object({ tenantId: z.string().min(1), kind: z.enum(MUSIC_QUERY_KINDS), taskId: MusicTaskId });
export type MusicQueryPayload = z.infer<typeof MusicQueryPayload>;

/** The per-task token of the callback URL the upstream was given: 43 base64url characters. */
export const MusicCallbackToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a callback token');
export const MusicCallbackPayload = z.object({ token: MusicCallbackToken, body: z.unknown() });
export type MusicCallbackPayload = z.infer<typeof MusicCallbackPayload>;
export const MusicCallbackReply = z.object({ accepted: z.boolean() });
export type MusicCallbackReply = z.infer<typeof MusicCallbackReply>;

/** What a track is besides its media: the same from the upstream, in the task row and in the client's view. */
export const MusicTrackMeta = z.object({
  prompt: z.string().nullable(),
  modelName: z.string().nullable(),
  title: z.string().nullable(),
  tags: z.string().nullable(),
  createTime: z.union([z.string(), z.number()]).nullable(),
  duration: z.number().nullable(),
});

/** One generated track, its media served from the gateway's own signed URLs. */
export const MusicTrackView = z.object({
  id: z.string(),
  audioUrl: z.string().nullable(),
  streamAudioUrl: z.string().nullable(),
  imageUrl: z.string().nullable(),
  ...MusicTrackMeta.shape,
});
export type MusicTrackView = z.infer<typeof MusicTrackView>;

export const MusicTaskView = z.object({
  taskId: z.string(),
  status: MusicTaskStatus,
  /** The route that created the task (`generate`, `wav-generate`, ...). */
  type: z.string(),
  response: z.object({
    sunoData: z.array(MusicTrackView),
    /** Files of the other kinds (WAV, video, stems, cover images) by name, as gateway URLs. */
    files: z.record(z.string(), z.string()),
    /** Text results (lyrics, word timings, expanded style, persona id). */
    details: z.record(z.string(), z.unknown()),
  }),
  errorCode: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
  createTime: z.string(),
});
export type MusicTaskView = z.infer<typeof MusicTaskView>;

export const MusicCreated = z.object({ taskId: z.string() });
export type MusicCreated = z.infer<typeof MusicCreated>;

/** The family's success envelope around `data`. */
function musicAnswer<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(200), msg: z.literal('success'), data });
}

/** What a create route answers: the task to query and to expect callbacks for. */
export const MusicCreatedAnswer = musicAnswer(MusicCreated).describe('A music task, created');
export type MusicCreatedAnswer = z.infer<typeof MusicCreatedAnswer>;

/** What a query route answers. */
export const MusicTaskAnswer = musicAnswer(MusicTaskView).describe('A music task');
export type MusicTaskAnswer = z.infer<typeof MusicTaskAnswer>;

/** What a successful music route answers: `{code: 200, msg: "success", data}`. */
export function musicEnvelope<T>(data: T): { code: 200; msg: 'success'; data: T } {
  return { code: 200, msg: 'success', data };
}
