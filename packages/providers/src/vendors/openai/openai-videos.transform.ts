// OpenAI's videos API as a media vendor: POST /videos, GET /videos/{id}, the bytes at /videos/{id}/content.
import { GatewayError } from '@gateway/contracts';
import { z } from 'zod';
import { clampProgress, type MediaJob, type MediaPollResult, type MediaSubmitResult, type MediaVendor } from '../../media/media-job.types';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { fromUpstreamError } from './openai-error.map';
import { upstreamUrl } from './openai-operations';

const VideoObject = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  progress: z.number().nullish(),
  seconds: z.union([z.string(), z.number()]).nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

function auth(channel: ChannelTarget): Record<string, string> {
  return channel.apiKey ? { authorization: `Bearer ${channel.apiKey}` } : {};
}

function parsed(body: unknown): z.infer<typeof VideoObject> {
  const result = VideoObject.safeParse(body);
  if (!result.success) throw new GatewayError('upstream_error', 'The upstream answered with a video object of an unexpected shape.');
  return result.data;
}

export const openaiVideos: MediaVendor = {
  submitRequest(channel: ChannelTarget, job: MediaJob): UpstreamRequest {
    const body: Record<string, unknown> = { model: channel.upstreamModel, prompt: job.prompt };
    if (job.seconds !== undefined) body.seconds = String(job.seconds);
    if (job.size !== undefined) body.size = job.size;
    return {
      method: 'POST',
      url: upstreamUrl(channel.baseUrl, '/videos'),
      headers: { ...auth(channel), 'content-type': 'application/json' },
      body: JSON.stringify(body),
      stream: false,
    };
  },

  parseSubmit(body: unknown): MediaSubmitResult {
    return { kind: 'task', upstreamTaskId: parsed(body).id };
  },

  pollRequest(channel: ChannelTarget, upstreamTaskId: string): UpstreamRequest {
    return { method: 'GET', url: upstreamUrl(channel.baseUrl, `/videos/${encodeURIComponent(upstreamTaskId)}`), headers: auth(channel), stream: false };
  },

  parsePoll(body: unknown, channel: ChannelTarget, upstreamTaskId: string): MediaPollResult {
    const video = parsed(body);
    switch (video.status) {
      case 'completed': {
        const url = upstreamUrl(channel.baseUrl, `/videos/${encodeURIComponent(upstreamTaskId)}/content`);
        const seconds = video.seconds === null || video.seconds === undefined ? undefined : Number(video.seconds);
        return { state: 'succeeded', assets: [{ url, kind: 'video', headers: auth(channel) }], usage: { seconds } };
      }
      case 'failed':
      case 'cancelled':
        return { state: 'failed', code: video.error?.code ?? video.status, message: video.error?.message ?? `The upstream video task ${video.status}.` };
      case 'queued':
        return { state: 'pending', progress: clampProgress(video.progress) };
      default:
        return { state: 'running', progress: clampProgress(video.progress) };
    }
  },

  toError(status: number, bodyText: string, channel: ChannelTarget): GatewayError {
    return fromUpstreamError(status, bodyText, { secrets: [channel.apiKey] });
  },
};
