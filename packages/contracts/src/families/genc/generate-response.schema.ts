// genc answers (also the Gemini upstream's shapes): candidates with parts, finish reason, usage metadata, errors.
import { z } from 'zod';
import { GencPart } from './generate-request.schema';

export const GencUsageMetadata = z
  .object({
    promptTokenCount: z.number().int().min(0).optional(),
    candidatesTokenCount: z.number().int().min(0).optional(),
    totalTokenCount: z.number().int().min(0).optional(),
    thoughtsTokenCount: z.number().int().min(0).optional(),
    cachedContentTokenCount: z.number().int().min(0).optional(),
  })
  .loose();
export type GencUsageMetadata = z.infer<typeof GencUsageMetadata>;

export const GencCandidate = z
  .object({
    content: z
      .object({ role: z.string().optional(), parts: z.array(GencPart).optional() })
      .loose()
      .optional(),
    finishReason: z.string().optional(),
    index: z.number().int().optional(),
  })
  .loose();
export type GencCandidate = z.infer<typeof GencCandidate>;

export const GenerateContentResponse = z
  .object({
    candidates: z.array(GencCandidate).optional(),
    usageMetadata: GencUsageMetadata.optional(),
    modelVersion: z.string().optional(),
    responseId: z.string().optional(),
    promptFeedback: z.object({ blockReason: z.string().optional() }).loose().optional(),
  })
  .loose();
export type GenerateContentResponse = z.infer<typeof GenerateContentResponse>;

/** The genc error dialect, also what a Gemini upstream answers on failure. */
export const GencErrorBody = z.object({ error: z.object({ code: z.number().int(), message: z.string(), status: z.string().optional() }).loose() }).loose();
export type GencErrorBody = z.infer<typeof GencErrorBody>;
