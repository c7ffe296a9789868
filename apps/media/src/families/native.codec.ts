import {
  GatewayError,
  NativeImageRequest,
  NativeVideoRequest,
  nativeCatalogId,
  nativeRuleViolation,
  parseOrThrow,
  type NativeTaskAnswer,
  type NativeTaskData,
  type NativeTaskStatus,
} from '@gateway/contracts';
import type { MediaJob } from '@gateway/providers';
import type { MediaTask } from '../tasks/media-task.repository';
import type { MediaTaskState } from '../tasks/media-task.state';
import type { DecodedCreate, FamilyCodec, RenderContext } from './family-codec';
import type { MediaRoute } from './media-route';

const STATUS: Record<MediaTaskState, NativeTaskStatus> = {
  queued: 'submitted',
  submitted: 'submitted',
  running: 'processing',
  succeeded: 'succeed',
  failed: 'failed',
  cancelled: 'failed',
};

export function nativeStatus(state: MediaTaskState): NativeTaskStatus {
  return STATUS[state];
}

function decode(route: MediaRoute, body: unknown): DecodedCreate {
  const kind = route.nativeKind!;
  if (route.output === 'image') {
    const request = parseOrThrow(NativeImageRequest, body);
    const violation = nativeRuleViolation(kind, request);
    if (violation) throw violation;
    const job: MediaJob = {
      output: 'image',
      nativeKind: kind,
      prompt: request.prompt,
      negativePrompt: request.negative_prompt,
      aspectRatio: request.aspect_ratio,
      images: request.n ?? 1,
      image: request.image,
      imageList: request.image_list?.map((item) => ({ url: item.image_url })),
    };
    return { catalogId: request.model_name, modelParam: 'model_name', capability: 'image', job };
  }
  const request = parseOrThrow(NativeVideoRequest, body);
  const violation = nativeRuleViolation(kind, request);
  if (violation) throw violation;
  if (request.model !== undefined && request.model !== request.model_name) {
    throw GatewayError.invalid(`model '${request.model}' differs from model_name '${request.model_name}'; keep them equal or leave model out.`, 'model');
  }
  const job: MediaJob = {
    output: 'video',
    nativeKind: kind,
    prompt: request.prompt,
    negativePrompt: request.negative_prompt,
    mode: request.mode,
    seconds: request.duration ?? 5,
    aspectRatio: request.aspect_ratio,
    generateAudio: request.generate_audio,
    sound: request.sound,
    voiceId: request.voice_id,
    image: request.image,
    imageTail: request.image_tail,
    imageList: request.image_list?.map((item) => ({ url: item.image_url, type: item.type })),
    videoList: request.video_list?.map((item) => item.video_url),
  };
  return { catalogId: nativeCatalogId(request.model_name, request.mode, kind), modelParam: 'model_name', capability: 'video', job };
}

function data(task: MediaTask, context: RenderContext): NativeTaskData {
  const out: NativeTaskData = {
    task_id: task.id,
    task_status: STATUS[task.state],
    task_status_msg: task.errorMessage ?? '',
    created_at: task.createdAt.getTime(),
    updated_at: (task.finishedAt ?? task.updatedAt).getTime(),
  };
  if (task.state === 'succeeded') {
    out.task_result =
      task.job.output === 'video'
        ? { videos: context.links.map((url, i) => ({ id: `${task.id}-${i}`, url, duration: String(task.usage?.seconds ?? task.job.seconds ?? '') })) }
        : { images: context.links.map((url, index) => ({ index, url })) };
  }
  if (task.state === 'failed' || task.state === 'cancelled') out.error = { code: task.errorCode ?? 'failed', message: task.errorMessage ?? 'The task failed.' };
  return out;
}

function envelope(task: MediaTask, context: RenderContext): NativeTaskAnswer {
  return { code: 0, message: 'SUCCEED', request_id: context.requestId, data: data(task, context) };
}

/** nativemedia: the vendor's {code, message, data} envelope and submitted / processing / succeed / failed. */
export const nativeCodec: FamilyCodec = { decode, created: envelope, task: envelope };
