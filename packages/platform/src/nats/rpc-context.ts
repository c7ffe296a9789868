import { BaseRpcContext } from '@nestjs/microservices';
import type { MsgHdrs } from 'nats';

/** What a handler may know of the message besides its payload: headers and a cancellation signal. */
export class RpcContext extends BaseRpcContext<[string, MsgHdrs | undefined, AbortSignal]> {
  get subject(): string {
    return this.args[0];
  }

  header(name: string): string | undefined {
    return this.args[1]?.get(name) || undefined;
  }

  /** Aborted when the caller goes away (a client disconnect at the edge). */
  get signal(): AbortSignal {
    return this.args[2];
  }
}
