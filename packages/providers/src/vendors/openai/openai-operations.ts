// The endpoint of each OpenAI-compatible operation, relative to a channel's base URL (which includes /v1).
import type { OaicOperation } from '../../provider.types';

export const OPENAI_PATHS: Record<OaicOperation, string> = {
  chat: '/chat/completions',
  completions: '/completions',
  responses: '/responses',
  embeddings: '/embeddings',
  moderations: '/moderations',
  images: '/images/generations',
  speech: '/audio/speech',
  transcriptions: '/audio/transcriptions',
  translations: '/audio/translations',
};

/** Operations whose body may ask for an SSE stream. */
export const STREAMABLE: ReadonlySet<OaicOperation> = new Set(['chat', 'completions', 'responses']);

/** Operations whose streams carry a final usage chunk only when `stream_options.include_usage` is set. */
export const USAGE_OPT_IN: ReadonlySet<OaicOperation> = new Set(['chat', 'completions']);

export function upstreamUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}
