import {
  ChatCompletionRequest,
  CompletionRequest,
  EmbeddingRequest,
  ImageGenerationRequest,
  ModerationRequest,
  parseOrThrow,
  ResponseCreateRequest,
  SpeechRequest,
  type Capability,
} from '@gateway/contracts';
import type { OaicOperation } from '@gateway/providers';
import type { z } from 'zod';

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
