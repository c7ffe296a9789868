import { createInbox, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';

/** Why a request ended without an answer. */
export class RequestFailure extends Error {
  constructor(readonly reason: 'no_responders' | 'timeout' | 'closed') {
    super(reason);
  }
}

/** The server's status answer to a request no subscriber took. */
export function isNoResponders(msg: Msg): boolean {
  return msg.headers?.hasError === true && msg.headers.code === 503;
}

interface Waiter {
  resolve(msg: Msg): void;
  reject(error: RequestFailure): void;
  deadline: number;
}

const SWEEP_MS = 50;

/**
 * Request/reply over one wildcard inbox subscription: each request is a map entry keyed by a counter,
 * deadlines are checked by one coarse timer, and the requests of one event-loop turn leave in one
 * socket write. No per-request subscription, timer or captured stack.
 */
export class RequestMux {
  private readonly inbox = createInbox();
  private readonly waiting = new Map<string, Waiter>();
  private readonly subscription: Subscription;
  /** Runs while requests wait: an idle process is not woken to sweep an empty table. */
  private sweeper: NodeJS.Timeout | undefined;
  private outgoing: Array<{ subject: string; data: Uint8Array; reply: string; headers?: MsgHdrs }> = [];
  private next = 0;

  constructor(private readonly connection: NatsConnection) {
    const start = this.inbox.length + 1;
    this.subscription = connection.subscribe(`${this.inbox}.*`, {
      callback: (error, msg) => {
        if (error) return;
        const token = msg.subject.slice(start);
        const waiter = this.waiting.get(token);
        if (!waiter) return;
        this.waiting.delete(token);
        if (isNoResponders(msg)) waiter.reject(new RequestFailure('no_responders'));
        else waiter.resolve(msg);
      },
    });
    void connection.closed().then(() => this.close());
  }

  /**
   * Sends a request and resolves with its answer. The request leaves with the others of this turn, or,
   * with `now`, is on the connection before this call returns (for a caller that orders it before
   * something else it writes next).
   */
  request(subject: string, data: Uint8Array, timeoutMs: number, headers?: MsgHdrs, now = false): Promise<Msg> {
    const token = (this.next++).toString(36);
    const reply = `${this.inbox}.${token}`;
    if (now) this.connection.publish(subject, data, { reply, headers });
    else {
      if (this.outgoing.length === 0) setImmediate(this.flush);
      this.outgoing.push({ subject, data, reply, headers });
    }
    this.sweeper ??= setInterval(() => this.expire(Date.now()), SWEEP_MS).unref();
    return new Promise<Msg>((resolve, reject) => this.waiting.set(token, { resolve, reject, deadline: Date.now() + timeoutMs }));
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    if (!this.subscription.isClosed()) this.subscription.unsubscribe();
    for (const waiter of this.waiting.values()) waiter.reject(new RequestFailure('closed'));
    this.waiting.clear();
  }

  private readonly flush = (): void => {
    const requests = this.outgoing;
    this.outgoing = [];
    for (const { subject, data, reply, headers } of requests) this.connection.publish(subject, data, { reply, headers });
  };

  private expire(now: number): void {
    for (const [token, waiter] of this.waiting) {
      if (waiter.deadline > now) continue;
      this.waiting.delete(token);
      waiter.reject(new RequestFailure('timeout'));
    }
    if (this.waiting.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
