import {
  ChatCompletionRequest,
  CompletionRequest,
  EmbeddingRequest,
  ModerationRequest,
  ResponseCreateRequest,
  SUBJECTS,
  type BatchEndpoint,
} from '@gateway/contracts';
import type { z } from 'zod';

export interface BatchEndpointRoute {
  /** The schema a line's body must pass: the live route's own. */
  body: z.ZodType;
  /** The chat service subject a line runs through, as the live route does. */
  subject: string;
  /** The route id its usage is recorded under, as for a live request. */
  route: string;
}

const OAIC = SUBJECTS.chat.oaic;

/** Each batch endpoint runs exactly like its live route. */
export const BATCH_ENDPOINT_ROUTES: Record<BatchEndpoint, BatchEndpointRoute> = {
  '/v1/chat/completions': { body: ChatCompletionRequest, subject: OAIC.chat, route: 'oaic.chat' },
  '/v1/completions': { body: CompletionRequest, subject: OAIC.completions, route: 'oaic.completions' },
  '/v1/responses': { body: ResponseCreateRequest, subject: OAIC.responses, route: 'oaic.responses.create' },
  '/v1/embeddings': { body: EmbeddingRequest, subject: OAIC.embeddings, route: 'oaic.embeddings' },
  '/v1/moderations': { body: ModerationRequest, subject: OAIC.moderations, route: 'oaic.moderations' },
};
