import { NATS_HEADERS, STREAM_KINDS, SUBJECTS, type ReplyNote, type ServiceName } from '@gateway/contracts';
import type { MessageHandler } from '@nestjs/microservices';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { headers as natsHeaders, type Msg, type NatsConnection, type Subscription } from 'nats';
import { lastValueFrom, Observable } from 'rxjs';
import { isDatabaseFault } from '../faults/database-fault';
import { isRedisFault } from '../redis/redis-fault';
import { decodeJson, decodeText, encodeJson, encodeReply, encodeText, toErrorBody } from './codec';
import { encodeNote, hasNote } from '../observability/reply-note';
import { extractTraceContext, markSpanFailed, SpanKind, trace, traceContext, tracer, tracingOn } from '../observability/tracing';
import { mergeStreamFrames, type OutgoingFrame } from './frame-merge';
import { heldOf } from './lost-request-probe';
import { linkOf, type NatsLink } from './nats-link';
import { watchReplyFate } from './reply-fate';
import { ReplyBarrier } from './reply-barrier';
import { ReplyClaims, type ReplyStore } from './reply-claims';
import { RpcContext } from './rpc-context';

/** A stream's frames of one turn travel as one message up to this size, well under any server's payload limit. */
const MERGED_FRAME_BYTES = 64 * 1024;

/** NATS's default max_payload, for a connection that has not said its own. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/** Room left in a message for its headers (kind, note, trace) under the server's max_payload. */
const HEADER_ROOM = 16 * 1024;

/** Why a stream stopped when the link dropped under it: its frames since are lost, so it ends in an error. */
const LINK_LOST = 'link_lost';

const LINK_LOST_REPLY = encodeReply({
  ok: false,
  error: { code: 'unavailable', message: 'The bus link dropped during the stream; try again.', retryAfterSeconds: 1 },
});

function frameBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return encodeText(value);
  return encodeJson(value);
}

function replyHeaders(kind: string | undefined, note: ReplyNote | undefined) {
  const h = natsHeaders();
  if (kind) h.set(NATS_HEADERS.kind, kind);
  if (note) h.set(NATS_HEADERS.note, encodeNote(note));
  return h;
}

async function* observableToIterable<T>(source: Observable<T>): AsyncGenerator<T> {
  const queue: T[] = [];
  let done = false;
  let failure: unknown;
  let wake: (() => void) | null = null;
  const subscription = source.subscribe({
    next: (value) => (queue.push(value), wake?.()),
    error: (error) => ((failure = error), (done = true), wake?.()),
    complete: () => ((done = true), wake?.()),
  });
  try {
    while (true) {
      if (queue.length) yield queue.shift()!;
      else if (done) break;
      else await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
    if (failure) throw failure;
  } finally {
    subscription.unsubscribe();
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value != null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

/**
 * A Nest microservice transport over our NATS wire format: `@MessagePattern` handlers answer in a
 * queue group (one replica per request), `@EventPattern` handlers receive broadcasts. A request
 * carrying the stream header gets each emitted value as its own message, then an end message.
 * While the link to the server is down, replies wait here and leave once it is back (the client would
 * drop them); a stream in flight when it drops stops and ends in an error frame.
 */
export class NatsRpcTransport extends Server implements CustomTransportStrategy {
  private readonly subscriptions: Subscription[] = [];
  /** Kept while in-flight work drains on close: stream cancels still reach it, and probes still find it held. */
  private readonly drainSubscriptions: Subscription[] = [];
  private outgoing: OutgoingFrame[] = [];
  /** Streams being written, by reply subject: a cancel names one. */
  private readonly streams = new Map<string, AbortController>();
  /** The reply subjects of unary requests being handled: a probe asks whether this process holds one. */
  private readonly answering = new Set<string>();
  /** Requests being handled: a shutdown waits for them after it stops taking new ones. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly link: NatsLink;
  private readonly unwatch: Array<() => void> = [];

  constructor(
    private readonly connection: NatsConnection,
    private readonly prefix: string,
    private readonly service: ServiceName,
    private readonly barrier = new ReplyBarrier(),
    /** How long a shutdown waits for the requests in flight. */
    private readonly graceMs = 25_000,
    /** Where a reply too large for one message waits for its caller (the process's NatsBus holds the same). */
    private readonly claims = new ReplyClaims(prefix),
  ) {
    super();
    barrier.setWriter(this.drain);
    this.link = linkOf(connection);
    this.unwatch.push(
      this.link.onDrop(() => {
        for (const stream of this.streams.values()) stream.abort(LINK_LOST);
      }),
      this.link.onUp(() => this.barrier.schedule()),
    );
  }

  /**
   * Every reply and stream frame leaves through here. Frames queue until the end of the event loop's
   * turn, then go out together behind the barrier: one socket write for all the replies of a turn, with
   * the usage events they account for ahead of them. A stream's data frames of one turn leave as one message.
   */
  private write(subject: string, data: Uint8Array, kind?: string, note?: ReplyNote, payload?: unknown): void {
    this.outgoing.push(hasNote(note) ? { subject, data, kind, note, payload } : { subject, data, kind, payload });
    this.barrier.schedule();
  }

  /** The barrier's writer: runs right after its hooks, at the end of the turn. */
  private readonly drain = (): void => {
    if (this.outgoing.length === 0 || !this.link.isUp) return;
    const frames = this.outgoing;
    this.outgoing = [];
    for (const frame of mergeStreamFrames(frames, MERGED_FRAME_BYTES)) this.publish(frame);
  };

  private publish(frame: OutgoingFrame): void {
    // The one cost on every reply: a length comparison (the encoded reply's length is known).
    const limit = (this.connection.info?.max_payload ?? DEFAULT_MAX_PAYLOAD) - HEADER_ROOM;
    if (frame.data.length > limit) return this.oversized(frame, limit);
    const { subject, data, kind, note } = frame;
    try {
      this.connection.publish(subject, data, kind || note ? { headers: replyHeaders(kind, note) } : undefined);
    } catch (error) {
      // An answer over the server's payload limit must not take the process (and every request in it) down:
      // its caller gets an error in its place.
      if ((error as { code?: string }).code !== 'MAX_PAYLOAD_EXCEEDED') throw error;
      this.refuse(frame);
    }
  }

  /**
   * A message over what NATS carries. A stream's data frame goes as consecutive frames of its bytes in
   * order (the caller writes data frames' bytes as they come, so the split does not show); a unary reply
   * waits in the reply store and its caller gets the key; anything else, or no store, is refused.
   */
  private oversized(frame: OutgoingFrame, limit: number): void {
    if (frame.kind === STREAM_KINDS.data) {
      for (let at = 0; at < frame.data.length; at += limit) this.publish({ ...frame, data: frame.data.subarray(at, at + limit) });
      return;
    }
    const store = this.claims.store;
    if (frame.kind === undefined && store) this.track(this.park(frame, store));
    else this.refuse(frame);
  }

  private async park(frame: OutgoingFrame, store: ReplyStore): Promise<void> {
    const key = this.claims.keyFor(this.service, frame.payload);
    try {
      await store.park(key, frame.data, this.claims.ttlSeconds);
    } catch (error) {
      this.logger.error(`a reply of ${frame.data.length} bytes could not be parked: ${(error as Error).message}`);
      return this.refuse(frame);
    }
    const headers = replyHeaders(undefined, frame.note);
    headers.set(NATS_HEADERS.replyRef, key);
    this.connection.publish(frame.subject, new Uint8Array(0), { headers });
  }

  /** An answer over the payload limit must not take the process (and every request in it) down: its caller gets an error in its place. */
  private refuse({ subject, data, kind }: OutgoingFrame): void {
    this.logger.error(`a reply of ${data.length} bytes exceeds the NATS payload limit; answered with an error instead`);
    const refusal = encodeReply({ ok: false, error: { code: 'upstream_error', message: 'The answer is larger than the gateway can relay.' } });
    this.connection.publish(subject, refusal, kind ? { headers: replyHeaders(STREAM_KINDS.error, undefined) } : undefined);
  }

  listen(callback: () => void): void {
    this.subscriptions.push(
      this.connection.subscribe(this.prefix + SUBJECTS.health(this.service), {
        queue: this.service,
        callback: (_e, msg) => msg.respond(encodeReply({ ok: true, data: { service: this.service, pid: process.pid } })),
      }),
    );
    // One subscription for every stream's cancel (a broadcast: the replica writing that stream acts on it),
    // rather than a subscription per stream, which would cost a write before the stream's upstream call.
    this.drainSubscriptions.push(
      this.connection.subscribe(this.prefix + SUBJECTS.streamCancel(this.service), {
        callback: (_e, msg) => this.streams.get(decodeText(msg.data))?.abort(),
      }),
    );
    // Asked when a server of the cluster leaves: which of the requests its callers still wait for are here.
    this.drainSubscriptions.push(
      this.connection.subscribe(this.prefix + SUBJECTS.ops.requestProbe, {
        callback: (_e, msg) => {
          const held = heldOf(msg.data, this.holds());
          if (held.length > 0 && msg.reply) msg.respond(encodeJson(held));
        },
      }),
    );
    for (const [pattern, handler] of this.messageHandlers) {
      const isEvent = handler.isEventHandler === true;
      this.subscriptions.push(
        this.connection.subscribe(this.prefix + pattern, {
          queue: isEvent ? undefined : this.service,
          callback: (error, msg) => {
            if (error) return this.logger.error(error);
            this.track(isEvent ? this.dispatch(pattern, handler, msg, true) : this.handle(pattern, handler, msg));
          },
        }),
      );
    }
    callback();
  }

  /** Whether a reply subject's request is here: being handled, streaming, or its reply waiting to leave. */
  private holds(): (reply: string) => boolean {
    const waiting = new Set(this.outgoing.map((frame) => frame.subject));
    return (reply) => this.answering.has(reply) || this.streams.has(reply) || waiting.has(reply);
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /**
   * A request, with a note for the reply (what served it; its handler gets it in the RpcContext) and,
   * when tracing is on, a server span that continues the caller's trace from the message headers.
   */
  private handle(pattern: string, handler: MessageHandler, msg: Msg): Promise<void> {
    const note: ReplyNote = {};
    if (!tracingOn()) return this.dispatch(pattern, handler, msg, false, note);
    const parent = extractTraceContext(msg.headers);
    const span = tracer().startSpan(
      pattern,
      { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': pattern } },
      parent,
    );
    return traceContext.with(trace.setSpan(parent, span), async () => {
      await this.dispatch(pattern, handler, msg, false, note);
      span.end();
    });
  }

  private async dispatch(pattern: string, handler: MessageHandler, msg: Msg, isEvent: boolean, note?: ReplyNote): Promise<void> {
    const abort = new AbortController();
    if (note) {
      const epoch = this.link.epoch;
      watchReplyFate(note, () => !this.link.isUp || this.link.epoch !== epoch);
    }
    const context = new RpcContext([msg.subject, msg.headers, abort.signal, note]);
    let payload: unknown;
    try {
      payload = decodeJson(msg.data);
    } catch {
      if (msg.reply) this.write(msg.reply, encodeReply({ ok: false, error: { code: 'invalid_request', message: `Malformed JSON on ${pattern}` } }));
      return;
    }
    if (isEvent) {
      try {
        await lastValueFrom(this.transformToObservable(await handler(payload, context)), { defaultValue: undefined });
      } catch (error) {
        this.logger.error(`event ${pattern} failed: ${(error as Error).message}`);
      }
      return;
    }
    const reply = msg.reply;
    if (reply && msg.headers?.get(NATS_HEADERS.stream) === '1') return this.dispatchStream(handler, reply, msg.subject, payload, context, abort, note);
    if (reply) this.answering.add(reply);
    try {
      const result = await lastValueFrom(this.transformToObservable(await handler(payload, context)), { defaultValue: undefined });
      if (reply) this.write(reply, encodeReply({ ok: true, data: result ?? null }), undefined, note, payload);
    } catch (error) {
      this.logUnexpected(pattern, error);
      markSpanFailed(error);
      if (reply) this.write(reply, encodeReply({ ok: false, error: toErrorBody(error) }), undefined, note);
    } finally {
      if (reply) this.answering.delete(reply);
    }
  }

  private async dispatchStream(
    handler: MessageHandler,
    reply: string,
    subject: string,
    payload: unknown,
    context: RpcContext,
    abort: AbortController,
    note: ReplyNote | undefined,
  ): Promise<void> {
    // Registered before any await: a cancel sent right after the request arrives after it, on this connection.
    this.streams.set(reply, abort);
    try {
      const result: unknown = await handler(payload, context);
      const source: AsyncIterable<unknown> = isAsyncIterable(result) ? result : observableToIterable(this.transformToObservable(result));
      // The response cache's outcome is known before the first frame and goes out with it: the caller
      // writes its response headers on the first frame, before the end's note arrives.
      let first = true;
      for await (const value of source) {
        if (abort.signal.aborted) break;
        this.write(reply, frameBytes(value), STREAM_KINDS.data, first && note?.cache !== undefined ? { cache: note.cache } : undefined);
        first = false;
      }
      if (!abort.signal.aborted) this.write(reply, new Uint8Array(0), STREAM_KINDS.end, note);
      else if (abort.signal.reason === LINK_LOST) this.write(reply, LINK_LOST_REPLY, STREAM_KINDS.error, note);
    } catch (error) {
      if (abort.signal.reason === LINK_LOST) this.write(reply, LINK_LOST_REPLY, STREAM_KINDS.error, note);
      else if (!abort.signal.aborted) {
        this.logUnexpected(subject, error);
        markSpanFailed(error);
        this.write(reply, encodeReply({ ok: false, error: toErrorBody(error) }), STREAM_KINDS.error, note);
      }
    } finally {
      this.streams.delete(reply);
    }
  }

  private logUnexpected(pattern: string, error: unknown): void {
    // A Redis fault is logged once by its client (lost, back), not once per request it fails.
    if (isRedisFault(error)) return;
    // The database out of reach answers 503: one line per request, without a stack that says nothing more.
    if (isDatabaseFault(error)) return this.logger.warn(`${pattern}: database unavailable: ${(error as Error).message.split('\n')[0]}`);
    if (!(error instanceof Error) || error.name !== 'GatewayError') this.logger.error(`${pattern}: ${(error as Error)?.stack ?? String(error)}`);
  }

  on(): void {
    throw new Error('NatsRpcTransport does not emit events');
  }

  unwrap<T>(): T {
    return this.connection as T;
  }

  /**
   * Stops taking requests, then lets the ones in flight finish (streams included) for up to `graceMs`
   * before the last replies are written. Meanwhile their callers can still cancel a stream, and a
   * lost-request probe still finds them here, so a long answer is not given up for lost while it drains.
   */
  async close(graceMs = this.graceMs): Promise<void> {
    for (const stop of this.unwatch) stop();
    for (const sub of this.subscriptions) sub.unsubscribe();
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...this.inFlight]), deadline]);
      clearTimeout(timer);
    }
    if (this.outgoing.length) this.barrier.flushNow();
    for (const sub of this.drainSubscriptions) sub.unsubscribe();
  }
}
