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

/** The operations that cross protocols: chat through the IR, completions and responses answered as chat. */
const ACROSS_PROTOCOLS: ReadonlySet<OaicOperation> = new Set(['chat', 'completions', 'responses']);

/**
 * The channels an oaic operation can use. Chat, completions and responses cross protocols; every other
 * operation is sent as the OpenAI protocol has it, so only OpenAI-compatible channels serve it. A model
 * with none is refused before any upstream call or billing hold.
 */
export function channelsFor(op: OaicOperation, modelId: string, channels: readonly CatalogChannel[]): CatalogChannel[] {
  if (ACROSS_PROTOCOLS.has(op)) return [...channels];
  const compatible = channels.filter((channel) => channel.protocol === 'openai');
  if (compatible.length > 0) return compatible;
  const protocols = [...new Set(channels.map((channel) => channel.protocol))].join(' and ');
  throw GatewayError.invalid(`The model '${modelId}' is served only by ${protocols}-protocol upstreams, and ${ROUTES[op]} reaches OpenAI-compatible upstreams only.`, 'model');
}
