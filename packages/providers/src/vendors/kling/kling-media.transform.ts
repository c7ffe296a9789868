// A Kling-style native vendor: one route per kind (/v1/videos/text2video, /v1/images/generations, ...),
// every answer in a {code, message, data} envelope, tasks read under the route that created them.
import { GatewayError } from '@gateway/contracts';
import { z } from 'zod';
import { upstreamError } from '../../ir/upstream-error';
import type { MediaJob, MediaPollResult, MediaSubmitResult, MediaVendor } from '../../media/media-job.types';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { klingBearer } from './kling-jwt';

const Envelope = z.looseObject({ code: z.number(), message: z.string().nullish(), data: z.unknown().optional() });
const TaskData = z.looseObject({
  task_id: z.string().min(1),
  task_status: z.string(),
  task_status_msg: z.string().nullish(),
  task_result: z
    .looseObject({
      videos: z.array(z.looseObject({ url: z.string(), duration: z.union([z.string(), z.number()]).nullish() })).nullish(),
      images: z.array(z.looseObject({ url: z.string() })).nullish(),
    })
    .nullish(),
});

/**
 * Vendor codes as HTTP statuses: 1000s the gateway's credentials, 1100s its account (both the gateway's
 * problem, never the client's), 1200s the request's parameters, 1300/1301 content policy, 1302+ rate and
 * concurrency limits.
 */
function codeStatus(code: number): number {
  if (code >= 1000 && code < 1100) return 401;
  if (code >= 1200 && code < 1302) return 400;
  if (code >= 1302 && code < 1400) return 429;
  return 502;
}

function section(job: MediaJob): string {
  return job.output === 'image' ? 'images' : 'videos';
}

function headers(channel: ChannelTarget): Record<string, string> {
  const base: Record<string, string> = { 'content-type': 'application/json' };
  if (channel.apiKey) base.authorization = `Bearer ${klingBearer(channel.apiKey)}`;
  return base;
}

function url(channel: ChannelTarget, path: string): string {
  return `${channel.baseUrl.replace(/\/+$/, '')}${path}`;
}

function body(channel: ChannelTarget, job: MediaJob): Record<string, unknown> {
  const out: Record<string, unknown> = { model_name: channel.upstreamModel, prompt: job.prompt };
  const set = (name: string, value: unknown) => {
    if (value !== undefined) out[name] = value;
  };
  set('negative_prompt', job.negativePrompt);
  set('aspect_ratio', job.aspectRatio);
  if (job.output === 'image') {
    set('n', job.images);
    set('image', job.image);
    if (job.imageList) out.image_list = job.imageList.map((item) => ({ image_url: item.url }));
    return out;
  }
  if (job.nativeKind !== 'omni-video') set('mode', job.mode ?? 'std');
  if (job.seconds !== undefined) out.duration = String(job.seconds);
  set('sound', job.sound ?? (job.generateAudio === undefined ? undefined : job.generateAudio ? 'on' : 'off'));
  set('voice_id', job.voiceId);
  if (job.nativeKind === 'image2video') {
    set('image', job.image);
    set('image_tail', job.imageTail);
  }
  if (job.nativeKind === 'omni-video') {
    const list = job.imageList ?? (job.image ? [{ url: job.image, type: 'first_frame' as const }] : undefined);
    if (list) out.image_list = list.map((item) => (item.type ? { image_url: item.url, type: item.type } : { image_url: item.url }));
    if (job.videoList) out.video_list = job.videoList.map((video) => ({ video_url: video }));
  }
  return out;
}

function taskOf(answer: unknown): z.infer<typeof TaskData> {
  const envelope = Envelope.safeParse(answer);
  if (!envelope.success) throw new GatewayError('upstream_error', 'The upstream answered with an envelope of an unexpected shape.');
  if (envelope.data.code !== 0) throw upstreamError(codeStatus(envelope.data.code), envelope.data.message ?? `code ${envelope.data.code}`);
  const data = TaskData.safeParse(envelope.data.data);
  if (!data.success) throw new GatewayError('upstream_error', 'The upstream answered with task data of an unexpected shape.');
  return data.data;
}

export const klingMedia: MediaVendor = {
  takesCallbackUrl: true,

  submitRequest(channel: ChannelTarget, job: MediaJob, callbackUrl?: string): UpstreamRequest {
    return {
      method: 'POST',
      url: url(channel, `/v1/${section(job)}/${job.nativeKind}`),
      headers: headers(channel),
      body: JSON.stringify(callbackUrl === undefined ? body(channel, job) : { ...body(channel, job), callback_url: callbackUrl }),
      stream: false,
    };
  },

  parseSubmit(answer: unknown): MediaSubmitResult {
    return { kind: 'task', upstreamTaskId: taskOf(answer).task_id };
  },

  pollRequest(channel: ChannelTarget, upstreamTaskId: string, job: MediaJob): UpstreamRequest {
    return {
      method: 'GET',
      url: url(channel, `/v1/${section(job)}/${job.nativeKind}/${encodeURIComponent(upstreamTaskId)}`),
      headers: headers(channel),
      stream: false,
    };
  },

  parsePoll(answer: unknown): MediaPollResult {
    const task = taskOf(answer);
    switch (task.task_status) {
      case 'succeed': {
        const videos = task.task_result?.videos ?? [];
        const images = task.task_result?.images ?? [];
        if (videos.length === 0 && images.length === 0) throw new GatewayError('upstream_error', 'The upstream task succeeded without a result URL.');
        if (videos.length > 0) {
          const seconds = videos.reduce((sum, video) => sum + Number(video.duration ?? 0), 0);
          return { state: 'succeeded', assets: videos.map((v) => ({ url: v.url, kind: 'video' })), usage: { seconds: seconds || undefined } };
        }
        return { state: 'succeeded', assets: images.map((i) => ({ url: i.url, kind: 'image' })), usage: { images: images.length } };
      }
      case 'failed':
        return { state: 'failed', code: 'failed', message: task.task_status_msg ?? 'The upstream task failed.' };
      case 'processing':
        return { state: 'running', progress: null };
      default:
        return { state: 'pending', progress: null };
    }
  },

  toError(status: number, bodyText: string, channel: ChannelTarget): GatewayError {
    let message = bodyText;
    let effective = status;
    try {
      const envelope = Envelope.safeParse(JSON.parse(bodyText));
      if (envelope.success) {
        message = envelope.data.message ?? message;
        if (status < 500 && status !== 429 && status !== 401 && status !== 403)
          effective = codeStatus(envelope.data.code) === 502 ? status : codeStatus(envelope.data.code);
      }
    } catch {
      // a body that is not JSON is passed on as text
    }
    return upstreamError(effective, message, { secrets: [channel.apiKey] });
  },
};
