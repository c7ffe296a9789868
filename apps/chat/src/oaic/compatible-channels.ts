import { GatewayError, type CatalogChannel } from '@gateway/contracts';
import type { OaicOperation } from '@gateway/providers';

/** The operations that cross protocols: chat through the IR, completions and responses answered as chat. */
const ACROSS_PROTOCOLS = ['chat', 'completions', 'responses'] as const;
type AcrossProtocols = (typeof ACROSS_PROTOCOLS)[number];

/** The route of each operation that only OpenAI-compatible upstreams serve, for the refusal's message. */
const ROUTES: Record<Exclude<OaicOperation, AcrossProtocols>, string> = {
  embeddings: 'POST /oaic/v1/embeddings',
  moderations: 'POST /oaic/v1/moderations',
  images: 'POST /oaic/v1/images/generations',
  speech: 'POST /oaic/v1/audio/speech',
  transcriptions: 'POST /oaic/v1/audio/transcriptions',
  translations: 'POST /oaic/v1/audio/translations',
};

function crossesProtocols(op: OaicOperation): op is AcrossProtocols {
  return (ACROSS_PROTOCOLS as readonly OaicOperation[]).includes(op);
}

/**
 * The channels an oaic operation can use. Chat, completions and responses cross protocols; every other
 * operation is sent as the OpenAI protocol has it, so only OpenAI-compatible channels serve it. A model
 * with none is refused before any upstream call or billing hold.
 */
export function channelsFor(op: OaicOperation, modelId: string, channels: readonly CatalogChannel[]): CatalogChannel[] {
  if (crossesProtocols(op)) return [...channels];
  const compatible = channels.filter((channel) => channel.protocol === 'openai');
  if (compatible.length > 0) return compatible;
  const protocols = [...new Set(channels.map((channel) => channel.protocol))].join(' and ');
  throw GatewayError.invalid(
    `The model '${modelId}' is served only by ${protocols}-protocol upstreams, and ${ROUTES[op]} reaches OpenAI-compatible upstreams only.`,
    'model',
  );
}

/**
 * Image generation for a model that no OpenAI-compatible channel serves but a native-media (Kling-style)
 * one does: the media service runs it as a native image task. Decided on the channels the request's one
 * catalog lookup already brought.
 */
export function servedAsMediaTask(op: OaicOperation, channels: readonly CatalogChannel[]): boolean {
  return op === 'images' && !channels.some((channel) => channel.protocol === 'openai') && channels.some((channel) => channel.protocol === 'kling');
}
