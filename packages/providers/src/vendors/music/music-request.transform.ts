// The gateway's music request as the upstream takes it: the channel's model, the gateway's own callback
// URL in place of the client's, and source task ids translated to the upstream's.
import type { MusicVerb } from '@gateway/contracts';
import type { UpstreamRequest } from '../../provider.types';
import { MUSIC_ENDPOINTS } from './music-endpoints';

export interface MusicUpstreamContext {
  baseUrl: string;
  apiKey: string | null;
  upstreamModel: string;
  /** The gateway's intake URL for this task (never the client's callBackUrl). */
  callBackUrl: string;
  /** The upstream's id of the source task, for routes that name one. */
  sourceUpstreamTaskId: string | null;
}

function headers(apiKey: string | null): Record<string, string> {
  const base: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) base.authorization = `Bearer ${apiKey}`;
  return base;
}

export function toMusicCreateRequest(verb: MusicVerb, body: Record<string, unknown>, context: MusicUpstreamContext): UpstreamRequest {
  const upstreamBody: Record<string, unknown> = { ...body, model: context.upstreamModel, callBackUrl: context.callBackUrl };
  if (context.sourceUpstreamTaskId !== null) upstreamBody.taskId = context.sourceUpstreamTaskId;
  if (verb === 'vocal-removal') upstreamBody.type = body.type ?? 'separate_vocal';
  if (verb === 'add-instrumental' && typeof body.style === 'string') upstreamBody.tags = body.style;
  return {
    method: 'POST',
    url: context.baseUrl.replace(/\/+$/, '') + MUSIC_ENDPOINTS[verb].create,
    headers: headers(context.apiKey),
    body: JSON.stringify(upstreamBody),
    stream: false,
  };
}

export function toMusicRecordInfoRequest(verb: MusicVerb, upstreamTaskId: string, baseUrl: string, apiKey: string | null): UpstreamRequest {
  const url = `${baseUrl.replace(/\/+$/, '')}${MUSIC_ENDPOINTS[verb].recordInfo}?taskId=${encodeURIComponent(upstreamTaskId)}`;
  return { method: 'GET', url, headers: headers(apiKey), stream: false };
}
