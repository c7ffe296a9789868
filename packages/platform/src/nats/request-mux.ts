import { createInbox, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';
import { MessageQueue } from './message-queue';
import { linkOf, type NatsLink } from './nats-link';

/**
 * Why a request ended without an answer (or a stream without its end): `too_large` when the message is
 * over the server's max_payload, `unsent` when the connection refused to write it for another reason,
 * `disconnected` when the link to the server was down as it left or dropped while it waited, `lost`
 * when a server of the cluster left while it waited and no service says it holds the request.
 */
export class RequestFailure extends Error {
  constructor(
    readonly reason: 'no_responders' | 'timeout' | 'closed' | 'too_large' | 'unsent' | 'disconnected' | 'lost',
    readonly limit?: number,
  ) {
    super(reason);
  }
}

/** What a publish that threw means for the request it carried. */
function publishFailure(error: unknown, connection: NatsConnection): RequestFailure {
  if ((error as { code?: unknown } | null)?.code === 'MAX_PAYLOAD_EXCEEDED') return new RequestFailure('too_large', connection.info?.max_payload);
  return new RequestFailure('unsent');
}

/** The server's status answer to a request no subscriber took. */
export function isNoResponders(msg: Msg): boolean {
  return msg.headers?.hasError === true && msg.headers.code === 503;
}

/** A request waiting on the shared inbox: it takes its messages until it says it is done. */
interface Waiter {
  /** Takes one message; true when the waiter wants no more. */
  deliver(msg: Msg): boolean;
  reject(error: RequestFailure): void;
  deadline: number;
  /** When it left, for a request a service answers (asked about when a server of the cluster leaves); 0 otherwise. */
  probedFrom: number;
}

export interface MuxRequestOptions {
  headers?: MsgHdrs;
  /** On the connection before the call returns (for a caller that orders it before what it writes next). */
  now?: boolean;
  /**
   * Answered by a service's transport, which says it holds the request when asked: when a server of the
   * cluster leaves while it waits and no service does, it fails as `lost` rather than wait out its timeout.
   */
  probed?: boolean;
}

/** The replies of one streamed request, in order, ended by `close()` or a failure. */
export interface MuxStream extends AsyncIterable<Msg> {
  /** The subject its replies come to (the service keys the stream by it, e.g. to cancel it). */
  readonly reply: string;
  close(): void;
}

const SWEEP_MS = 50;

/**
 * Request/reply over one wildcard inbox subscription: each request is a map entry keyed by a counter,
 * deadlines are checked by one coarse timer, and the requests of one event-loop turn leave in one
 * socket write. No per-request subscription, timer or captured stack. A streamed request is an entry
 * too, taking every message until its caller closes it: no subscribe and unsubscribe per stream.
 * When the link drops every entry fails at once with `disconnected` (its reply can no longer come), and
 * while it is down a request fails as it is made rather than vanish in the client's reconnect buffer.
 */
export class RequestMux {
  private readonly inbox = createInbox();
  private readonly waiting = new Map<string, Waiter>();
  private readonly subscription: Subscription;
  /** Runs while requests wait: an idle process is not woken to sweep an empty table. */
  private sweeper: NodeJS.Timeout | undefined;
  private outgoing: Array<{ token: string; subject: string; data: Uint8Array; reply: string; headers?: MsgHdrs }> = [];
  private next = 0;
  readonly link: NatsLink;
  private readonly stopWatching: () => void;

  constructor(private readonly connection: NatsConnection) {
    this.link = linkOf(connection);
    this.stopWatching = this.link.onDrop(() => this.failAll(new RequestFailure('disconnected')));
    const start = this.inbox.length + 1;
    this.subscription = connection.subscribe(`${this.inbox}.*`, {
      callback: (error, msg) => {
        if (error) return;
        const token = msg.subject.slice(start);
        const waiter = this.waiting.get(token);
        if (!waiter) return;
        if (isNoResponders(msg)) {
          this.waiting.delete(token);
          waiter.reject(new RequestFailure('no_responders'));
        } else if (waiter.deliver(msg)) this.waiting.delete(token);
      },
    });
    void connection.closed().then(() => this.close());
  }

  /**
   * Sends a request and resolves with its answer. The request leaves with the others of this turn, or,
   * with `now`, before this call returns. A message the connection will not write (over max_payload,
   * closed) fails its own request with a RequestFailure; it never throws out of a flush.
   */
  request(subject: string, data: Uint8Array, timeoutMs: number, options: MuxRequestOptions = {}): Promise<Msg> {
    const { headers, now, probed } = options;
    const { token, reply } = this.address();
    const limit = this.connection.info?.max_payload;
    if (limit !== undefined && data.length > limit) return Promise.reject(new RequestFailure('too_large', limit));
    if (!this.link.isUp) return Promise.reject(new RequestFailure('disconnected'));
    if (now) {
      try {
        this.connection.publish(subject, data, { reply, headers });
      } catch (error) {
        return Promise.reject(publishFailure(error, this.connection));
      }
    } else {
      if (this.outgoing.length === 0) setImmediate(this.flush);
      this.outgoing.push({ token, subject, data, reply, headers });
    }
    const sentAt = Date.now();
    return new Promise<Msg>((resolve, reject) =>
      this.wait(token, {
        deliver: (msg) => {
          resolve(msg);
          return true;
        },
        reject,
        deadline: sentAt + timeoutMs,
        probedFrom: probed ? sentAt : 0,
      }),
    );
  }

  /**
   * Sends a streamed request at once and returns its replies as they come. It fails with `timeout`
   * when `idleMs` pass without a message (before the first one or between two), with `no_responders`
   * when no service took it.
   */
  stream(subject: string, data: Uint8Array, idleMs: number, options: Omit<MuxRequestOptions, 'now'> = {}): MuxStream {
    const { headers, probed } = options;
    const { token, reply } = this.address();
    const queue = new MessageQueue<Msg>();
    const sentAt = Date.now();
    const waiter: Waiter = {
      deliver: (msg) => {
        waiter.deadline = Date.now() + idleMs;
        queue.push(msg);
        return false;
      },
      reject: (error) => queue.fail(error),
      deadline: sentAt + idleMs,
      probedFrom: probed ? sentAt : 0,
    };
    if (!this.link.isUp) queue.fail(new RequestFailure('disconnected'));
    else {
      this.wait(token, waiter);
      try {
        this.connection.publish(subject, data, { reply, headers });
      } catch (error) {
        this.waiting.delete(token);
        queue.fail(publishFailure(error, this.connection));
      }
    }
    const close = () => {
      if (this.waiting.get(token) === waiter) this.waiting.delete(token);
      queue.end();
    };
    return { reply, close, [Symbol.asyncIterator]: () => queue.iterate(close) };
  }

  /** The reply subjects of the probed requests sent at or before `at` that still wait for an answer. */
  unanswered(at: number): string[] {
    const replies: string[] = [];
    for (const [token, waiter] of this.waiting) {
      if (waiter.probedFrom !== 0 && waiter.probedFrom <= at) replies.push(`${this.inbox}.${token}`);
    }
    return replies;
  }

  /** Whether the request answered at `reply` still waits. */
  waits(reply: string): boolean {
    return this.waiting.has(reply.slice(this.inbox.length + 1));
  }

  /** Fails the requests answered at `replies` that still wait, as `lost`. */
  lose(replies: readonly string[]): void {
    for (const reply of replies) {
      const token = reply.slice(this.inbox.length + 1);
      const waiter = this.waiting.get(token);
      if (!waiter) continue;
      this.waiting.delete(token);
      waiter.reject(new RequestFailure('lost'));
    }
  }

  close(): void {
    this.stopWatching();
    if (!this.subscription.isClosed()) this.subscription.unsubscribe();
    this.failAll(new RequestFailure('closed'));
  }

  private failAll(failure: RequestFailure): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    const waiters = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiter of waiters) waiter.reject(failure);
  }

  /** A fresh entry key and the reply subject that reaches it. */
  private address(): { token: string; reply: string } {
    const token = (this.next++).toString(36);
    return { token, reply: `${this.inbox}.${token}` };
  }

  private wait(token: string, waiter: Waiter): void {
    this.waiting.set(token, waiter);
    this.sweeper ??= setInterval(() => this.expire(Date.now()), SWEEP_MS).unref();
  }

  private readonly flush = (): void => {
    const requests = this.outgoing;
    this.outgoing = [];
    for (const { token, subject, data, reply, headers } of requests) {
      if (!this.link.isUp) {
        const waiter = this.waiting.get(token);
        this.waiting.delete(token);
        waiter?.reject(new RequestFailure('disconnected'));
        continue;
      }
      try {
        this.connection.publish(subject, data, { reply, headers });
      } catch (error) {
        const waiter = this.waiting.get(token);
        this.waiting.delete(token);
        waiter?.reject(publishFailure(error, this.connection));
      }
    }
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
