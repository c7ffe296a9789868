import { GatewayError, type CatalogChannel } from '@gateway/contracts';
import type { OaicOperation } from '@gateway/providers';

const ROUTES: Record<OaicOperation, string> = {
  chat: 'POST /oaic/v1/chat/completions',
  completions: 'POST /oaic/v1/completions',
  responses: 'POST /oaic/v1/responses',
  embeddings: 'POST /oaic/v1/embeddings',
  moderations: 'POST /oaic/v1/moderations',
  images: 'POST /oaic/v1/images/generations',
  speech: 'POST /oaic/v1/audio/speech',
  transcriptions: 'POST /oaic/v1/audio/transcriptions',
  translations: 'POST /oaic/v1/audio/translations',
};

/**
 * The channels an oaic operation can use. Chat crosses protocols (through the IR), and so do completions
 * (answered as chat where a channel has no completions endpoint); every other operation is sent as the
 * OpenAI protocol has it, so only OpenAI-compatible channels serve it. A model with none is refused
 * before any upstream call or billing hold, naming the route that does serve it.
 */
export function channelsFor(op: OaicOperation, modelId: string, channels: readonly CatalogChannel[]): CatalogChannel[] {
  if (op === 'chat' || op === 'completions') return [...channels];
  const compatible = channels.filter((channel) => channel.protocol === 'openai');
  if (compatible.length > 0) return compatible;
  const protocols = [...new Set(channels.map((channel) => channel.protocol))].join(' and ');
  const instead = op === 'responses' ? `; this model answers ${ROUTES.chat} and ${ROUTES.completions}` : '';
  throw GatewayError.invalid(
    `The model '${modelId}' is served only by ${protocols}-protocol upstreams, and ${ROUTES[op]} reaches OpenAI-compatible upstreams only${instead}.`,
    'model',
  );
}
