// The error body of each family's dialect, as the edge writes it (one mapper per family in the edge).
// msgc and genc keep theirs beside their answers: an Anthropic or Gemini upstream fails in the same shape.
import { z } from 'zod';
import { ErrorCode } from '../errors/error-code';

export const OaicErrorBody = z
  .object({
    error: z.object({
      message: z.string(),
      type: z
        .string()
        .describe('invalid_request_error, authentication_error, permission_error, not_found_error, rate_limit_error, insufficient_quota, api_error'),
      param: z.string().nullable().describe('The field or header at fault'),
      code: z.string().nullable(),
    }),
  })
  .describe('An oaic error');
export type OaicErrorBody = z.infer<typeof OaicErrorBody>;

export const DscErrorBody = z
  .object({ request_id: z.string(), code: z.string().describe('InvalidParameter, InvalidApiKey, Arrearage, Throttling.RateQuota, …'), message: z.string() })
  .describe('A dsc error');
export type DscErrorBody = z.infer<typeof DscErrorBody>;

export const NativeMediaErrorBody = z
  .object({ code: z.number().int().describe('1xxx: the request; 5xxx: the server'), message: z.string(), request_id: z.string() })
  .describe('A nativemedia error');
export type NativeMediaErrorBody = z.infer<typeof NativeMediaErrorBody>;

export const MusicErrorBody = z
  .object({ code: z.number().int().describe('400, 401, 404, 405, 413, 429, 430, 455 or 500; the HTTP status is the same'), msg: z.string(), data: z.null() })
  .describe('A music error');
export type MusicErrorBody = z.infer<typeof MusicErrorBody>;

export const RoomErrorBody = z.object({ success: z.literal(false), error: z.object({ code: ErrorCode, message: z.string() }) }).describe('A chat-room error');
export type RoomErrorBody = z.infer<typeof RoomErrorBody>;
