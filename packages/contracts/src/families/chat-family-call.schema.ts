// NATS payloads of the msgc and genc chat subjects (`chat.msgc.*`, `chat.genc.*`). The caller and the
// claim-check rule are the oaic family's; genc adds the model and the streaming flag its path carries.
import { z } from 'zod';
import { RequestCache } from '../cache/response-cache.schema';
import { BodyChecked, BodyRef, OaicCallPayload } from './oaic/oaic-call.schema';
import { TenantCaller } from './tenant-caller.schema';

/** `chat.msgc.messages` and `chat.msgc.count-tokens`: the msgc body inline, or a claim check. */
export const MsgcCallPayload = OaicCallPayload;
export type MsgcCallPayload = z.infer<typeof MsgcCallPayload>;

/** `chat.genc.generate`: the model from the path, whether the route streams, and the body (or a claim check). */
export const GencCallPayload = TenantCaller.extend({
  model: z.string().min(1),
  stream: z.boolean(),
  body: z.unknown().optional(),
  bodyRef: BodyRef.optional(),
  checked: BodyChecked,
  cache: RequestCache.optional(),
}).refine((p) => (p.body === undefined) !== (p.bodyRef === undefined), { message: 'give exactly one of body or bodyRef', path: ['body'] });
export type GencCallPayload = z.infer<typeof GencCallPayload>;

/** Unary msgc and genc replies: the family's answer body, already parsed by the chat service. */
export const ChatFamilyJsonReply = z.looseObject({});
export type ChatFamilyJsonReply = z.infer<typeof ChatFamilyJsonReply>;

/** Query of `genc.stream`: the contract streams as SSE only (spec 4.5). */
export const GencStreamQuery = z.looseObject({
  alt: z.literal('sse', { error: 'streamGenerateContent requires the query alt=sse' }),
});
export type GencStreamQuery = z.infer<typeof GencStreamQuery>;
