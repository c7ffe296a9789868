import { DscImageRequest, DscVideoRequest, parseOrThrow, type DscTaskAnswer, type DscTaskOutput, type DscTaskStatus } from '@gateway/contracts';
import type { MediaJob } from '@gateway/providers';
import type { MediaTask } from '../tasks/media-task.repository';
import type { MediaTaskState } from '../tasks/media-task.state';
import type { DecodedCreate, FamilyCodec, RenderContext } from './family-codec';
import type { MediaRoute } from './media-route';

const STATUS: Record<MediaTaskState, DscTaskStatus> = {
  queued: 'PENDING',
  submitted: 'PENDING',
  running: 'RUNNING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  cancelled: 'CANCELED',
};

export function dscStatus(state: MediaTaskState): DscTaskStatus {
  return STATUS[state];
}

/** `YYYY-MM-DD HH:MM:SS.mmm` (UTC), as the family writes times. */
export function dscTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

function decode(route: MediaRoute, body: unknown): DecodedCreate {
  if (route.output === 'image') {
    const request = parseOrThrow(DscImageRequest, body);
    const parts = request.input.messages.flatMap((message) => message.content);
    const job: MediaJob = {
      output: 'image',
      nativeKind: 'generations',
      prompt: parts.flatMap((part) => (part.text ? [part.text] : [])).join('\n'),
      image: parts.find((part) => part.image)?.image,
      size: request.parameters?.size?.replace('*', 'x'),
      images: request.parameters?.n ?? 1,
      negativePrompt: request.parameters?.negative_prompt,
      promptExtend: request.parameters?.prompt_extend,
      watermark: request.parameters?.watermark,
    };
    return { catalogId: request.model, modelParam: 'model', capability: 'image', job };
  }
  const request = parseOrThrow(DscVideoRequest, body);
  const job: MediaJob = {
    output: 'video',
    nativeKind: request.input.img_url ? 'image2video' : 'text2video',
    prompt: request.input.prompt,
    image: request.input.img_url,
    audioUrl: request.input.audio_url,
    resolution: request.parameters?.resolution,
    seconds: request.parameters?.duration ?? 5,
    generateAudio: request.parameters?.audio,
    promptExtend: request.parameters?.prompt_extend,
  };
  return { catalogId: request.model, modelParam: 'model', capability: 'video', job };
}

function task(task: MediaTask, context: RenderContext): DscTaskAnswer {
  const output: DscTaskOutput = {
    task_id: task.id,
    task_status: STATUS[task.state],
    submit_time: dscTime(task.createdAt),
    scheduled_time: dscTime(task.createdAt),
    orig_prompt: task.job.prompt,
    actual_prompt: task.job.prompt,
  };
  if (task.finishedAt) output.end_time = dscTime(task.finishedAt);
  if (task.state === 'succeeded' && task.job.output === 'video') output.video_url = context.links[0];
  if (task.state === 'succeeded' && task.job.output === 'image') output.results = context.links.map((url) => ({ url }));
  if (task.state === 'failed' || task.state === 'cancelled') {
    output.code = task.errorCode ?? 'InternalError';
    output.message = task.errorMessage ?? `The task ended ${STATUS[task.state]}.`;
  }
  const answer: DscTaskAnswer = { request_id: context.requestId, output };
  if (task.state === 'succeeded' && task.job.output === 'video') {
    const seconds = task.usage?.seconds ?? task.job.seconds ?? 0;
    answer.usage = {
      duration: seconds,
      output_video_duration: seconds,
      video_count: context.links.length,
      ...(task.job.aspectRatio ? { ratio: task.job.aspectRatio } : {}),
    };
  }
  if (task.state === 'succeeded' && task.job.output === 'image') answer.usage = { image_count: context.links.length };
  return answer;
}

/** The image route answers at once with the images (the task is already done); the video route with the task to poll. */
function created(created: MediaTask, context: RenderContext): DscTaskAnswer {
  if (created.job.output === 'image' && created.state === 'succeeded') {
    const [width, height] = (created.job.size ?? '1024x1024').split('x').map(Number);
    return {
      request_id: context.requestId,
      output: {
        task_id: created.id,
        task_status: STATUS[created.state],
        choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: context.links.map((image) => ({ image })) } }],
      },
      usage: { width, height, image_count: context.links.length },
    };
  }
  return { request_id: context.requestId, output: { task_id: created.id, task_status: STATUS[created.state] } };
}

/** dsc: DashScope's task shapes and PENDING / RUNNING / SUCCEEDED / FAILED / CANCELED. */
export const dscCodec: FamilyCodec = { decode, created, task };
