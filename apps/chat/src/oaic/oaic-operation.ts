import {
  ChatCompletionRequest,
  CompletionRequest,
  EmbeddingRequest,
  ImageGenerationRequest,
  ModerationRequest,
  ResponseCreateRequest,
  SpeechRequest,
  type Capability,
} from '@gateway/contracts';
import type { OaicOperation } from '@gateway/providers';
import type { z } from 'zod';

export type JsonOperation = Exclude<OaicOperation, 'transcriptions' | 'translations'>;

interface OperationSpec {
  schema: z.ZodType<Record<string, unknown>>;
  capability: Capability;
  /** Answers may be streamed as SSE. */
  streams: boolean;
}

/** What each JSON-bodied oaic operation accepts and which kind of model serves it. */
export const OPERATIONS: Record<JsonOperation, OperationSpec> = {
  chat: { schema: ChatCompletionRequest, capability: 'chat', streams: true },
  completions: { schema: CompletionRequest, capability: 'chat', streams: true },
  responses: { schema: ResponseCreateRequest, capability: 'chat', streams: true },
  embeddings: { schema: EmbeddingRequest, capability: 'embedding', streams: false },
  moderations: { schema: ModerationRequest, capability: 'moderation', streams: false },
  images: { schema: ImageGenerationRequest, capability: 'image', streams: false },
  speech: { schema: SpeechRequest, capability: 'tts', streams: false },
};
