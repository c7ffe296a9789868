import { z } from 'zod';
import { ErrorBody } from '../errors/error-code';

/** A unary reply over NATS: the handler's value, or a domain error. */
export const RpcReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorBody }),
]);
export type RpcReply = z.infer<typeof RpcReply>;
