import type { z } from 'zod';

/**
 * A subject with what travels on it: the request its handler parses and the reply it answers with. A
 * caller's message and a handler's answer are typed by them (`NatsBus.call`, `@RpcHandler`).
 */
export interface Rpc<Req extends z.ZodType = z.ZodType, Rep extends z.ZodType = z.ZodType> {
  readonly subject: string;
  readonly request: Req;
  readonly reply: Rep;
}

export function rpc<Req extends z.ZodType, Rep extends z.ZodType>(subject: string, request: Req, reply: Rep): Rpc<Req, Rep> {
  return { subject, request, reply };
}

/** What a caller sends on `R`: its request schema's input. */
export type RpcMessage<R extends Rpc> = z.input<R['request']>;

/** What a handler of `R` may answer: what its reply schema parses on the caller's side. */
export type RpcAnswer<R extends Rpc> = z.input<R['reply']>;

/** What a caller gets back from `R`. */
export type RpcReplyOf<R extends Rpc> = z.output<R['reply']>;
