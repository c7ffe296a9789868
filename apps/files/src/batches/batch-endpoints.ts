import type { ChatShape } from '@gateway/billing';
import {
  ChatCompletionRequest,
  CompletionRequest,
  EmbeddingRequest,
  ModerationRequest,
  ResponseCreateRequest,
  SUBJECTS,
  type BatchEndpoint,
  type Capability,
} from '@gateway/contracts';
import type { z } from 'zod';

export interface BatchEndpointRoute {
  /** The schema a line's body must pass: the live route's own. */
  body: z.ZodType;
  /** The chat service subject a line runs through, as the live route does. */
  subject: string;
  /** The route id its usage is recorded under, as for a live request. */
  route: string;
  /** What a model must be able to do to serve it. */
  capability: Capability;
  /** How its body names an output cap (null: no output to bound). */
  shape: ChatShape | null;
}

const OAIC = SUBJECTS.chat.oaic;

/** Each batch endpoint runs exactly like its live route. */
export const BATCH_ENDPOINT_ROUTES: Record<BatchEndpoint, BatchEndpointRoute> = {
  '/v1/chat/completions': { body: ChatCompletionRequest, subject: OAIC.chat, route: 'oaic.chat', capability: 'chat', shape: 'oaic-chat' },
  '/v1/completions': { body: CompletionRequest, subject: OAIC.completions, route: 'oaic.completions', capability: 'chat', shape: 'oaic-completions' },
  '/v1/responses': { body: ResponseCreateRequest, subject: OAIC.responses, route: 'oaic.responses.create', capability: 'chat', shape: 'oaic-responses' },
  '/v1/embeddings': { body: EmbeddingRequest, subject: OAIC.embeddings, route: 'oaic.embeddings', capability: 'embedding', shape: null },
  '/v1/moderations': { body: ModerationRequest, subject: OAIC.moderations, route: 'oaic.moderations', capability: 'moderation', shape: null },
};
