import { isOmniModel, parseOrThrow, VideoCreateRequest, type VideoObject, type VideoStatus } from '@gateway/contracts';
import type { MediaJob } from '@gateway/providers';
import type { MediaTask } from '../tasks/media-task.repository';
import type { MediaTaskState } from '../tasks/media-task.state';
import type { DecodedCreate, FamilyCodec, RenderContext } from './family-codec';

const STATUS: Record<MediaTaskState, VideoStatus> = {
  queued: 'processing',
  submitted: 'processing',
  running: 'processing',
  succeeded: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

export function oaicVideoStatus(state: MediaTaskState): VideoStatus {
  return STATUS[state];
}

const unix = (date: Date) => Math.floor(date.getTime() / 1000);

function decode(_route: unknown, body: unknown): DecodedCreate {
  const request = parseOrThrow(VideoCreateRequest, body);
  const frames = request.frame_images ?? [];
  const first = frames.find((f) => /first/.test(f.role ?? f.frame_type ?? 'first'))?.url;
  const last = frames.find((f) => /(last|end)/.test(f.role ?? f.frame_type ?? ''))?.url;
  const image = request.image ?? request.input_reference ?? first;
  const tier = /-(std|pro)$/.exec(request.model)?.[1] as 'std' | 'pro' | undefined;
  const omni = isOmniModel(request.model);
  const job: MediaJob = {
    output: 'video',
    nativeKind: omni ? 'omni-video' : image ? 'image2video' : 'text2video',
    prompt: request.prompt,
    seconds: request.duration ?? request.seconds ?? 5,
    size: request.size,
    aspectRatio: request.aspect_ratio,
    mode: request.mode ?? tier,
    generateAudio: request.generate_audio,
    sound: request.sound,
    image,
    imageTail: last,
    videoList: request.input_references?.filter((r) => r.type === 'video').map((r) => r.url),
  };
  if (omni && image) job.imageList = [{ url: image, type: 'first_frame' }, ...(last ? [{ url: last, type: 'end_frame' as const }] : [])];
  return { catalogId: request.model, modelParam: 'model', capability: 'video', job };
}

function video(task: MediaTask): VideoObject {
  const failed = task.state === 'failed' || task.state === 'cancelled';
  return {
    id: task.id,
    object: 'video',
    model: task.model,
    status: STATUS[task.state],
    progress: task.progress,
    created_at: unix(task.createdAt),
    completed_at: task.finishedAt && task.state === 'succeeded' ? unix(task.finishedAt) : null,
    seconds: task.job.seconds === undefined ? null : String(task.job.seconds),
    size: task.job.size ?? null,
    download_url: task.state === 'succeeded' ? `/v1/videos/${task.id}/content` : null,
    error: failed ? { code: task.errorCode ?? task.state, message: task.errorMessage ?? `The video task ${task.state}.` } : null,
  };
}

/** oaic videos: OpenAI's video object, `processing` until terminal, a relative download_url once completed. */
export const oaicVideoCodec: FamilyCodec = {
  decode,
  created: (task: MediaTask) => video(task),
  task: (task: MediaTask, _context: RenderContext) => video(task),
};
