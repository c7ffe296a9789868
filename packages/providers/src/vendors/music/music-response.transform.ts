// The upstream's answers read into one shape: the create envelope, its callbacks and its record-info,
// each parsed before anything uses it. Callbacks use snake_case track fields, record-info camelCase.
import { GatewayError, MusicTrackMeta, type MusicCallbackType } from '@gateway/contracts';
import { z } from 'zod';
import { upstreamError } from '../../ir/upstream-error';

const Str = z.string().nullish();
const Num = z.union([z.number(), z.string()]).nullish();

export const MusicUpstreamTrack = z.object({
  id: z.string(),
  audioUrl: z.string().nullable(),
  streamAudioUrl: z.string().nullable(),
  imageUrl: z.string().nullable(),
  ...MusicTrackMeta.shape,
});
export type MusicUpstreamTrack = z.infer<typeof MusicUpstreamTrack>;

export type MusicUpstreamStage = MusicCallbackType | 'pending' | 'failed';

/** Where an upstream task stands, whichever way we learnt it. */
export interface MusicProgress {
  upstreamTaskId: string;
  stage: MusicUpstreamStage;
  tracks: MusicUpstreamTrack[];
  /** Named file URLs of the non-song kinds (wav, video, stems, cover images). */
  files: Record<string, string>;
  /** Text results: lyrics, word timings, style, persona. */
  details: Record<string, unknown>;
  error: { code: number; message: string } | null;
}

const Envelope = z.object({ code: z.number(), msg: z.string().nullish(), data: z.unknown() });

const SnakeTrack = z.object({
  id: z.string(),
  audio_url: Str,
  stream_audio_url: Str,
  image_url: Str,
  prompt: Str,
  model_name: Str,
  title: Str,
  tags: Str,
  createTime: Num,
  duration: z.number().nullish(),
});
const CamelTrack = z.object({
  id: z.string(),
  audioUrl: Str,
  streamAudioUrl: Str,
  imageUrl: Str,
  prompt: Str,
  modelName: Str,
  title: Str,
  tags: Str,
  createTime: Num,
  duration: z.number().nullish(),
});

const orNull = (value: string | null | undefined) => (value ? value : null);

function fromSnake(track: z.infer<typeof SnakeTrack>): MusicUpstreamTrack {
  return {
    id: track.id,
    audioUrl: orNull(track.audio_url),
    streamAudioUrl: orNull(track.stream_audio_url),
    imageUrl: orNull(track.image_url),
    prompt: track.prompt ?? null,
    modelName: track.model_name ?? null,
    title: track.title ?? null,
    tags: track.tags ?? null,
    createTime: track.createTime ?? null,
    duration: track.duration ?? null,
  };
}

function fromCamel(track: z.infer<typeof CamelTrack>): MusicUpstreamTrack {
  return {
    id: track.id,
    audioUrl: orNull(track.audioUrl),
    streamAudioUrl: orNull(track.streamAudioUrl),
    imageUrl: orNull(track.imageUrl),
    prompt: track.prompt ?? null,
    modelName: track.modelName ?? null,
    title: track.title ?? null,
    tags: track.tags ?? null,
    createTime: track.createTime ?? null,
    duration: track.duration ?? null,
  };
}

/** A non-song result object: `*_url` strings and `images[]` are files, everything else is a detail. */
function splitResult(result: Record<string, unknown>): { files: Record<string, string>; details: Record<string, unknown> } {
  const files: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) {
    if (key.endsWith('_url') && typeof value === 'string' && value) files[key.slice(0, -4)] = value;
    else if (key === 'images' && Array.isArray(value)) value.forEach((url, i) => typeof url === 'string' && (files[`image_${i + 1}`] = url));
    else details[key] = value;
  }
  return { files, details };
}

function readResult(data: unknown, camel: boolean): Pick<MusicProgress, 'tracks' | 'files' | 'details'> {
  const track = camel ? CamelTrack : SnakeTrack;
  if (Array.isArray(data)) {
    const tracks = z.array(track).safeParse(data);
    if (tracks.success) return { tracks: tracks.data.map((t) => (camel ? fromCamel(t as never) : fromSnake(t as never))), files: {}, details: {} };
    return { tracks: [], files: {}, details: { items: data } };
  }
  if (data && typeof data === 'object') return { tracks: [], ...splitResult(data as Record<string, unknown>) };
  return { tracks: [], files: {}, details: {} };
}

/** The create answer: the upstream's task id, or its refusal as a GatewayError. */
export function parseMusicCreateAnswer(status: number, json: unknown): string {
  const envelope = Envelope.safeParse(json);
  if (status >= 400 || !envelope.success || envelope.data.code !== 200) {
    const code = envelope.success ? envelope.data.code : status;
    const message = envelope.success ? (envelope.data.msg ?? '') : `HTTP ${status}`;
    throw code === 400 || code === 413
      ? new GatewayError(code === 413 ? 'payload_too_large' : 'invalid_request', message, null, code)
      : upstreamError(code >= 400 && code < 600 ? code : 502, message);
  }
  const taskId = z.object({ taskId: z.string().min(1) }).safeParse(envelope.data.data);
  if (!taskId.success) throw new GatewayError('upstream_error', 'the upstream accepted the task but named no taskId', null, 502);
  return taskId.data.taskId;
}

const CallbackBody = z.object({
  code: z.number(),
  msg: z.string().nullish(),
  data: z.object({ callbackType: z.enum(['text', 'first', 'complete', 'error']), task_id: z.string().min(1), data: z.unknown().optional() }),
});

/** An upstream callback; null when the body is not one. */
export function parseMusicCallback(json: unknown): MusicProgress | null {
  const parsed = CallbackBody.safeParse(json);
  if (!parsed.success) return null;
  const { callbackType, task_id, data } = parsed.data.data;
  if (callbackType === 'error' || parsed.data.code !== 200) {
    return {
      upstreamTaskId: task_id,
      stage: 'failed',
      tracks: [],
      files: {},
      details: {},
      error: { code: parsed.data.code, message: parsed.data.msg ?? 'generation failed' },
    };
  }
  return { upstreamTaskId: task_id, stage: callbackType, ...readResult(data, false), error: null };
}

const RecordInfo = z.object({
  taskId: z.string().min(1),
  status: z.string(),
  response: z.unknown().optional(),
  errorCode: z.union([z.number(), z.string()]).nullish(),
  errorMessage: z.string().nullish(),
});

const STATUS_STAGE: Record<string, MusicUpstreamStage> = {
  PENDING: 'pending',
  TEXT_SUCCESS: 'text',
  FIRST_SUCCESS: 'first',
  SUCCESS: 'complete',
};

/** A record-info answer; failure statuses (CREATE_TASK_FAILED, GENERATE_AUDIO_FAILED, SENSITIVE_WORD_ERROR, ...) are `failed`. */
export function parseMusicRecordInfo(json: unknown): MusicProgress {
  const envelope = Envelope.parse(json);
  if (envelope.code !== 200) throw upstreamError(envelope.code >= 400 && envelope.code < 600 ? envelope.code : 502, envelope.msg ?? 'record-info failed');
  const info = RecordInfo.parse(envelope.data);
  const stage = STATUS_STAGE[info.status] ?? 'failed';
  const response = info.response as { sunoData?: unknown; result?: unknown } | undefined;
  const result = response?.sunoData !== undefined ? readResult(response.sunoData, true) : readResult(response?.result, true);
  const error = stage === 'failed' ? { code: Number(info.errorCode ?? 500) || 500, message: info.errorMessage ?? info.status } : null;
  return { upstreamTaskId: info.taskId, stage, ...result, error };
}
