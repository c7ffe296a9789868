// Pure transforms for the assistants API of an OpenAI-compatible upstream (assistants, threads, messages,
// runs): each operation's method and path, the beta header the API requires, the channel's key, and the
// model names swapped between the catalog's id and the channel's upstream name.
import type { AssistantsOp } from '@gateway/contracts';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { upstreamUrl } from './openai-operations';

/** The header the assistants API (v2) requires on every call. */
export const ASSISTANTS_BETA_HEADER = { 'openai-beta': 'assistants=v2' } as const;

/** The ids an operation's path names. */
export interface AssistantsPathIds {
  assistantId?: string;
  threadId?: string;
}

export interface AssistantsCall extends AssistantsPathIds {
  op: AssistantsOp;
  /** List paging, passed on as the query string. */
  query?: Record<string, string | number | undefined>;
  /** The JSON body of a POST; a `model` it names is sent as the channel's upstream name. */
  body?: Record<string, unknown>;
  /** A run asked for as an event stream. */
  stream?: boolean;
}

const METHODS: Record<AssistantsOp, UpstreamRequest['method']> = {
  'assistants.create': 'POST',
  'assistants.list': 'GET',
  'assistants.get': 'GET',
  'assistants.update': 'POST',
  'assistants.delete': 'DELETE',
  'threads.create': 'POST',
  'threads.get': 'GET',
  'threads.update': 'POST',
  'threads.delete': 'DELETE',
  'threads.messages.create': 'POST',
  'threads.messages.list': 'GET',
  'threads.runs.create': 'POST',
  'threads.runs.list': 'GET',
};

function required(id: string | undefined, what: string): string {
  if (!id) throw new Error(`the assistants path needs a ${what}`);
  return encodeURIComponent(id);
}

/** The path of an operation under the channel's base URL. */
export function assistantsPath(op: AssistantsOp, ids: AssistantsPathIds): string {
  switch (op) {
    case 'assistants.create':
    case 'assistants.list':
      return '/assistants';
    case 'assistants.get':
    case 'assistants.update':
    case 'assistants.delete':
      return `/assistants/${required(ids.assistantId, 'assistant id')}`;
    case 'threads.create':
      return '/threads';
    case 'threads.get':
    case 'threads.update':
    case 'threads.delete':
      return `/threads/${required(ids.threadId, 'thread id')}`;
    case 'threads.messages.create':
    case 'threads.messages.list':
      return `/threads/${required(ids.threadId, 'thread id')}/messages`;
    case 'threads.runs.create':
    case 'threads.runs.list':
      return `/threads/${required(ids.threadId, 'thread id')}/runs`;
  }
}

function queryString(query: AssistantsCall['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function toAssistantsUpstream(call: AssistantsCall, channel: ChannelTarget): UpstreamRequest {
  const method = METHODS[call.op];
  const stream = call.op === 'threads.runs.create' && call.stream === true;
  const headers: Record<string, string> = { accept: stream ? 'text/event-stream' : 'application/json', ...ASSISTANTS_BETA_HEADER };
  if (channel.apiKey) headers.authorization = `Bearer ${channel.apiKey}`;
  const request: UpstreamRequest = { method, url: upstreamUrl(channel.baseUrl, assistantsPath(call.op, call) + queryString(call.query)), headers, stream };
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    request.body = JSON.stringify(withUpstreamModel(call.body ?? {}, channel));
  }
  return request;
}

/** The ids naming one run. */
export interface RunPathIds {
  threadId: string;
  runId: string;
}

/**
 * `GET /threads/{thread_id}/runs/{run_id}`: one run as the upstream has it now. Not a client route of the
 * gateway; the run sweeper asks it about runs whose end the gateway has not seen.
 */
export function toRunRetrieveUpstream(ids: RunPathIds, channel: ChannelTarget): UpstreamRequest {
  const headers: Record<string, string> = { accept: 'application/json', ...ASSISTANTS_BETA_HEADER };
  if (channel.apiKey) headers.authorization = `Bearer ${channel.apiKey}`;
  const path = `/threads/${required(ids.threadId, 'thread id')}/runs/${required(ids.runId, 'run id')}`;
  return { method: 'GET', url: upstreamUrl(channel.baseUrl, path), headers, stream: false };
}

/** The body with its `model` (when it names one) swapped for the channel's upstream name. */
export function withUpstreamModel(body: Record<string, unknown>, channel: ChannelTarget): Record<string, unknown> {
  return typeof body.model === 'string' ? { ...body, model: channel.upstreamModel } : body;
}

/** An upstream object with its `model` (when it is the channel's upstream name) shown as the catalog's id. */
export function withPublicModel<T extends Record<string, unknown>>(object: T, upstreamModel: string, publicModel: string): T {
  return object.model === upstreamModel && upstreamModel !== publicModel ? { ...object, model: publicModel } : object;
}
