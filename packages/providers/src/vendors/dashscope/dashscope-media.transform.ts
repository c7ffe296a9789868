// DashScope's asynchronous tasks as a media vendor: video synthesis with `X-DashScope-Async: enable`,
// polled at GET /tasks/{id}; multimodal image generation answered at once (output.choices).
import { GatewayError } from '@gateway/contracts';
import { z } from 'zod';
import { upstreamError } from '../../ir/upstream-error';
import type { MediaAsset, MediaJob, MediaPollResult, MediaSubmitResult, MediaVendor } from '../../media/media-job.types';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';

const ErrorBody = z.looseObject({ code: z.string().nullish(), message: z.string().nullish() });

const TaskOutput = z.looseObject({
  task_id: z.string().min(1),
  task_status: z.string(),
  video_url: z.string().nullish(),
  results: z.array(z.looseObject({ url: z.string().nullish() })).nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});
const TaskAnswer = z.looseObject({
  output: TaskOutput,
  usage: z.looseObject({ video_duration: z.number().nullish(), duration: z.number().nullish() }).nullish(),
});

const ImageAnswer = z.looseObject({
  output: z.looseObject({
    choices: z.array(z.looseObject({ message: z.looseObject({ content: z.array(z.looseObject({ image: z.string().nullish() })) }) })).min(1),
  }),
});

function headers(channel: ChannelTarget, async: boolean): Record<string, string> {
  const base: Record<string, string> = { 'content-type': 'application/json' };
  if (channel.apiKey) base.authorization = `Bearer ${channel.apiKey}`;
  if (async) base['x-dashscope-async'] = 'enable';
  return base;
}

function url(channel: ChannelTarget, path: string): string {
  return `${channel.baseUrl.replace(/\/+$/, '')}${path}`;
}

function videoBody(channel: ChannelTarget, job: MediaJob): Record<string, unknown> {
  const input: Record<string, unknown> = { prompt: job.prompt };
  if (job.image) input.img_url = job.image;
  if (job.audioUrl) input.audio_url = job.audioUrl;
  const parameters: Record<string, unknown> = {};
  if (job.resolution) parameters.resolution = job.resolution;
  if (job.seconds !== undefined) parameters.duration = job.seconds;
  if (job.generateAudio !== undefined) parameters.audio = job.generateAudio;
  if (job.promptExtend !== undefined) parameters.prompt_extend = job.promptExtend;
  return { model: channel.upstreamModel, input, parameters };
}

function imageBody(channel: ChannelTarget, job: MediaJob): Record<string, unknown> {
  const content: Array<Record<string, string>> = [{ text: job.prompt }];
  if (job.image) content.push({ image: job.image });
  const parameters: Record<string, unknown> = {};
  if (job.size) parameters.size = job.size.replace('x', '*');
  if (job.images) parameters.n = job.images;
  if (job.negativePrompt) parameters.negative_prompt = job.negativePrompt;
  if (job.promptExtend !== undefined) parameters.prompt_extend = job.promptExtend;
  if (job.watermark !== undefined) parameters.watermark = job.watermark;
  return { model: channel.upstreamModel, input: { messages: [{ role: 'user', content }] }, parameters };
}

function unexpected(what: string): GatewayError {
  return new GatewayError('upstream_error', `The upstream answered with a ${what} of an unexpected shape.`);
}

export const dashscopeMedia: MediaVendor = {
  submitRequest(channel: ChannelTarget, job: MediaJob): UpstreamRequest {
    if (job.output === 'image') {
      return {
        method: 'POST',
        url: url(channel, '/services/aigc/multimodal-generation/generation'),
        headers: headers(channel, false),
        body: JSON.stringify(imageBody(channel, job)),
        stream: false,
      };
    }
    return {
      method: 'POST',
      url: url(channel, '/services/aigc/video-generation/video-synthesis'),
      headers: headers(channel, true),
      body: JSON.stringify(videoBody(channel, job)),
      stream: false,
    };
  },

  parseSubmit(body: unknown): MediaSubmitResult {
    const image = ImageAnswer.safeParse(body);
    if (image.success) {
      const assets: MediaAsset[] = image.data.output.choices.flatMap((choice) =>
        choice.message.content.flatMap((part) => (part.image ? [{ url: part.image, kind: 'image' as const }] : [])),
      );
      return { kind: 'done', assets, usage: { images: assets.length } };
    }
    const task = TaskAnswer.safeParse(body);
    if (!task.success) throw unexpected('task answer');
    return { kind: 'task', upstreamTaskId: task.data.output.task_id };
  },

  pollRequest(channel: ChannelTarget, upstreamTaskId: string): UpstreamRequest {
    return { method: 'GET', url: url(channel, `/tasks/${encodeURIComponent(upstreamTaskId)}`), headers: headers(channel, false), stream: false };
  },

  parsePoll(body: unknown): MediaPollResult {
    const task = TaskAnswer.safeParse(body);
    if (!task.success) throw unexpected('task answer');
    const { output, usage } = task.data;
    switch (output.task_status) {
      case 'SUCCEEDED': {
        const urls = output.video_url ? [output.video_url] : (output.results ?? []).flatMap((r) => (r.url ? [r.url] : []));
        if (urls.length === 0) throw unexpected('succeeded task without a result URL');
        const kind = output.video_url ? 'video' : 'image';
        const seconds = usage?.video_duration ?? usage?.duration ?? undefined;
        return { state: 'succeeded', assets: urls.map((u) => ({ url: u, kind })), usage: kind === 'video' ? { seconds } : { images: urls.length } };
      }
      case 'FAILED':
      case 'CANCELED':
      case 'UNKNOWN':
        return { state: 'failed', code: output.code ?? output.task_status, message: output.message ?? `The upstream task ended ${output.task_status}.` };
      case 'RUNNING':
        return { state: 'running', progress: null };
      default:
        return { state: 'pending', progress: null };
    }
  },

  toError(status: number, bodyText: string, channel: ChannelTarget): GatewayError {
    let message = bodyText;
    try {
      const parsed = ErrorBody.safeParse(JSON.parse(bodyText));
      if (parsed.success) message = [parsed.data.code, parsed.data.message].filter(Boolean).join(': ');
    } catch {
      // a body that is not JSON is passed on as text
    }
    return upstreamError(status, message, { secrets: [channel.apiKey] });
  },
};
