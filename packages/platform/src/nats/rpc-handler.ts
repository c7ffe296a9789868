import type { Rpc, RpcAnswer } from '@gateway/contracts';
import { MessagePattern } from '@nestjs/microservices';

/** A handler method whose answer (sync or not) its subject's reply schema allows. */
type Answering<R extends Rpc> = (...args: never[]) => RpcAnswer<R> | Promise<RpcAnswer<R>>;

/**
 * `@MessagePattern` for a subject of the typed map, checked at compile time: a method whose return type
 * the subject's reply schema does not allow does not compile.
 */
export function RpcHandler<R extends Rpc>(rpc: R) {
  return <M extends Answering<R>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    MessagePattern(rpc.subject)(target, key, descriptor);
  };
}
