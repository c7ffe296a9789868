import { z } from 'zod';

/** Every domain error carries one of these codes; each transport maps them once to its own status and dialect. */
export const ErrorCode = z.enum([
  'invalid_request',
  'authentication_failed',
  'permission_denied',
  'not_found',
  'model_not_found',
  'payload_too_large',
  'rate_limited',
  'insufficient_quota',
  'budget_exceeded',
  'upstream_error',
  'upstream_timeout',
  'unavailable',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorBody = z.object({
  code: ErrorCode,
  message: z.string(),
  param: z.string().nullish(),
  /** HTTP status an upstream answered with, passed on to the client where the dialect allows. */
  upstreamStatus: z.number().int().nullish(),
  retryAfterSeconds: z.number().int().nullish(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
