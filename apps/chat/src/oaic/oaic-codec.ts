import {
  ChatCompletionRequest,
  CompletionRequest,
  EmbeddingRequest,
  GatewayError,
  ImageGenerationRequest,
  ModerationRequest,
  parseOrThrow,
  ResponseCreateRequest,
  SpeechRequest,
  type Capability,
  type CatalogChannel,
} from '@gateway/contracts';
import { embedsNatively, isOpenaiCompatible, type OaicOperation } from '@gateway/providers';
import type { z } from 'zod';

/*
 * The oaic family's codec: each JSON operation's schema, the kind of model that serves it, and the
 * channels it may use. Everything after it (admission, the run) is the same for every family.
 */

export type JsonOperation = Exclude<OaicOperation, 'transcriptions' | 'translations'>;

/** The schema of each JSON-bodied oaic operation. */
const SCHEMAS = {
  chat: ChatCompletionRequest,
  completions: CompletionRequest,
  responses: ResponseCreateRequest,
  embeddings: EmbeddingRequest,
  moderations: ModerationRequest,
  images: ImageGenerationRequest,
  speech: SpeechRequest,
} satisfies Record<JsonOperation, z.ZodType>;

type OperationBodies = { [Op in JsonOperation]: z.infer<(typeof SCHEMAS)[Op]> };

/** The same schemas, each typed by its own operation's body, so that a generic operation keeps its body type. */
const TYPED_SCHEMAS: { [Op in JsonOperation]: z.ZodType<OperationBodies[Op]> } = SCHEMAS;

/** A parsed body with the operation it was parsed for: narrowing `op` narrows `body`. */
export type OperationRequestOf<Op extends JsonOperation> = { [K in Op]: { op: K; body: OperationBodies[K] } }[Op];

/** Which kind of model serves each operation. */
export const CAPABILITIES: Record<JsonOperation, Capability> = {
  chat: 'chat',
  completions: 'chat',
  responses: 'chat',
  embeddings: 'embedding',
  moderations: 'moderation',
  images: 'image',
  speech: 'tts',
};

/** Parses a body by its operation's schema; a refusal names the field at fault. */
export function parseOperation<Op extends JsonOperation>(op: Op, body: unknown): OperationRequestOf<Op> {
  const schema: z.ZodType<OperationBodies[Op]> = TYPED_SCHEMAS[op];
  return { op, body: parseOrThrow(schema, body) };
}

/** The schema a body of `op` is parsed by, here or (for a body the edge marks checked) at the edge. */
export function operationSchema(op: JsonOperation): z.ZodType {
  return SCHEMAS[op];
}

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
 * The channels an oaic operation can use. Chat, completions and responses cross protocols; embeddings reach
 * the clouds with a dialect of their own (Bedrock, Vertex) too; every other operation is sent as the OpenAI
 * protocol has it, so only OpenAI-compatible channels serve it. A model with none is refused before any
 * upstream call or billing hold.
 */
export function channelsFor(op: OaicOperation, modelId: string, channels: readonly CatalogChannel[]): CatalogChannel[] {
  if (crossesProtocols(op)) return [...channels];
  const compatible = channels.filter((channel) => isOpenaiCompatible(channel.protocol) || (op === 'embeddings' && embedsNatively(channel.protocol)));
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
  return op === 'images' && !channels.some((channel) => isOpenaiCompatible(channel.protocol)) && channels.some((channel) => channel.protocol === 'kling');
}
