import type { ReplyNote } from '@gateway/contracts';
import { BaseRpcContext } from '@nestjs/microservices';
import type { MsgHdrs } from 'nats';

/** What a handler may know of the message besides its payload: headers, a cancellation signal, the reply's note. */
export class RpcContext extends BaseRpcContext<[string, MsgHdrs | undefined, AbortSignal, ReplyNote | undefined]> {
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

  /**
   * How the request was served (model, channel, tokens), filled by whoever knows and sent with the reply
   * for the caller's access line; a broadcast event has none.
   */
  get note(): ReplyNote | undefined {
    return this.args[3];
  }
}
