import type { Readable } from 'node:stream';
import type { ProviderProtocol } from '@gateway/contracts';

/** One upstream route to a model: a provider endpoint plus the model name it knows. */
export interface ChannelTarget {
  id: string;
  providerId: string;
  protocol: ProviderProtocol;
  baseUrl: string;
  apiKey: string | null;
  /** The provider's non-secret settings for its protocol; null for protocols that take none. */
  settings?: Readonly<Record<string, unknown>> | null;
  upstreamModel: string;
  priority: number;
  weight: number;
}

/** Operations of the OpenAI-compatible protocol (other protocols add their own). */
export type OaicOperation = 'chat' | 'completions' | 'responses' | 'embeddings' | 'moderations' | 'images' | 'speech' | 'transcriptions' | 'translations';

/** A fully described HTTP call, produced by a pure `toUpstream` transform. */
export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** JSON text, raw bytes, or a multipart body built by the caller. */
  body?: string | Buffer | Readable | FormData;
  /** The caller expects an SSE stream back. */
  stream: boolean;
}

/** What came back, before any body was read; `body` is consumed once. */
export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}
