import { z } from 'zod';
import { RequestCache } from '../../cache/response-cache.schema';
import { TenantCaller } from '../tenant-caller.schema';

/**
 * Claim check: a body too large for one NATS message waits in Redis under `key` (short TTL) and the
 * message carries this reference instead.
 */
export const BodyRef = z.object({ store: z.literal('redis'), key: z.string().min(1), bytes: z.number().int().nonnegative() });
export type BodyRef = z.infer<typeof BodyRef>;

/**
 * Where a claim-checked body waits: named by its tenant and the server's request id, so the chat
 * service redeems only the body parked for the very request it runs.
 */
export function claimCheckKey(prefix: string, tenantId: string, requestId: string): string {
  return `${prefix}claim:${tenantId}:${requestId}`;
}

/**
 * Set by the edge when it parsed the body by its route's schema, the one the service would parse it by:
 * the bus is internal, so the service takes such a body as typed and parses it no second time. A body
 * from anywhere else (a batch line) comes without it and is parsed where it is used.
 */
export const BodyChecked = z.literal(true).optional();

/** Payload of every JSON-bodied `chat.oaic.*` subject: the parsed request body inline, or a claim check. */
export const OaicCallPayload = TenantCaller.extend({
  /** The public origin the edge answers on, sent where an answer may carry gateway links (images from a media model). */
  origin: z.url().optional(),
  body: z.unknown().optional(),
  bodyRef: BodyRef.optional(),
  checked: BodyChecked,
  /** The response cache this request may use (chat, completions, responses, messages); absent: off. */
  cache: RequestCache.optional(),
}).refine((p) => (p.body === undefined) !== (p.bodyRef === undefined), { message: 'give exactly one of body or bodyRef', path: ['body'] });
export type OaicCallPayload = z.infer<typeof OaicCallPayload>;

/** An uploaded file parked in object storage; bytes never ride NATS. */
export const StoredFileRef = z.object({
  key: z.string().min(1),
  filename: z.string().min(1),
  contentType: z.string().min(1),
  size: z.number().int().nonnegative(),
});
export type StoredFileRef = z.infer<typeof StoredFileRef>;

/** `chat.oaic.audio.transcriptions` / `.translations`: the multipart text fields plus the stored file. */
export const OaicAudioPayload = TenantCaller.extend({
  fields: z.record(z.string(), z.string()),
  file: StoredFileRef,
});
export type OaicAudioPayload = z.infer<typeof OaicAudioPayload>;

/** `chat.oaic.audio.speech` reply: where the synthesized audio waits for the edge to stream it out. */
export const SpeechReply = z.object({ objectKey: z.string().min(1), contentType: z.string().min(1), size: z.number().int().nonnegative() });
export type SpeechReply = z.infer<typeof SpeechReply>;

/** `chat.oaic.responses.get`. */
export const ResponseGetPayload = TenantCaller.extend({ responseId: z.string().min(1) });
export type ResponseGetPayload = z.infer<typeof ResponseGetPayload>;

/** Transcription replies are JSON for json formats and plain text otherwise. */
export const TranscriptionReply = z.object({ contentType: z.string(), body: z.union([z.string(), z.looseObject({})]) });
export type TranscriptionReply = z.infer<typeof TranscriptionReply>;

/** Non-stream JSON replies from the chat service are upstream answers already parsed there. */
export const OaicJsonReply = z.looseObject({});
export type OaicJsonReply = z.infer<typeof OaicJsonReply>;
