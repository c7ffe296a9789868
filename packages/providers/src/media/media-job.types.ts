import type { GatewayError, NativeKind } from '@gateway/contracts';
import type { ChannelTarget, UpstreamRequest } from '../provider.types';

/**
 * What a client asked a media task to make, in one shape for every family and vendor: the families
 * decode into it, the vendor transforms encode from it.
 */
export interface MediaJob {
  output: 'video' | 'image';
  /** The native route the job maps to (Kling-style vendors); the other vendors ignore it. */
  nativeKind: NativeKind;
  prompt: string;
  negativePrompt?: string;
  seconds?: number;
  /** `<w>x<h>` */
  size?: string;
  aspectRatio?: string;
  /** `<n>P` */
  resolution?: string;
  mode?: 'std' | 'pro';
  generateAudio?: boolean;
  sound?: string;
  voiceId?: string;
  /** First frame or image-to-video source. */
  image?: string;
  imageTail?: string;
  imageList?: Array<{ url: string; type?: 'first_frame' | 'end_frame' }>;
  videoList?: string[];
  audioUrl?: string;
  images?: number;
  promptExtend?: boolean;
  watermark?: boolean;
}

/** One generated file, where the upstream keeps it (temporarily); `headers` when fetching it needs the channel's key. */
export interface MediaAsset {
  url: string;
  kind: 'video' | 'image';
  headers?: Record<string, string>;
}

export interface MediaUsage {
  seconds?: number;
  images?: number;
}

/** What a submit answered: a task to poll, or (synchronous vendors) the result already. */
export type MediaSubmitResult = { kind: 'task'; upstreamTaskId: string } | { kind: 'done'; assets: MediaAsset[]; usage: MediaUsage };

/** What a poll found. */
export type MediaPollResult =
  | { state: 'pending' | 'running'; progress: number | null }
  | { state: 'succeeded'; assets: MediaAsset[]; usage: MediaUsage }
  | { state: 'failed'; code: string; message: string };

/** One vendor's media protocol as pure transforms: requests out, parsed answers in. */
export interface MediaVendor {
  /** `callbackUrl`: where the vendor is asked to call when the task ends (only where `takesCallbackUrl`). */
  submitRequest(channel: ChannelTarget, job: MediaJob, callbackUrl?: string): UpstreamRequest;
  /** The vendor calls a per-task URL when a task ends (Kling-style `callback_url`). */
  readonly takesCallbackUrl?: boolean;
  /** A 2xx answer to the submit; throws GatewayError when it is a refusal in disguise (e.g. a non-zero `code`). */
  parseSubmit(body: unknown, channel: ChannelTarget): MediaSubmitResult;
  pollRequest(channel: ChannelTarget, upstreamTaskId: string, job: MediaJob): UpstreamRequest;
  /** A 2xx answer to a poll. */
  parsePoll(body: unknown, channel: ChannelTarget, upstreamTaskId: string): MediaPollResult;
  /** A non-2xx answer (submit or poll) in the vendor's dialect, as a GatewayError. */
  toError(status: number, bodyText: string, channel: ChannelTarget): GatewayError;
}

export function clampProgress(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.min(100, Math.round(value))) : null;
}
