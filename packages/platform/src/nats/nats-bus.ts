import {
  GatewayError,
  NATS_HEADERS,
  RpcReply,
  serviceOfSubject,
  STREAM_KINDS,
  SUBJECTS,
  type ReplyNote,
  type Rpc,
  type RpcMessage,
  type RpcReplyOf,
} from '@gateway/contracts';
import { headers as natsHeaders, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';
import type { z } from 'zod';
import { gatewayMetrics } from '../observability/metrics';
import { noteOf } from '../observability/reply-note';
import { injectTraceContext, tracingOn, type TraceContext } from '../observability/tracing';
import { decodeJson, encodeJson, encodeText, replyDataBytes } from './codec';
import { ReplyBarrier } from './reply-barrier';
import { ReplyClaims } from './reply-claims';
import { LostRequestProbe } from './lost-request-probe';
import type { NatsLink } from './nats-link';
import { RequestFailure, RequestMux } from './request-mux';

/** What a caller is told to wait before trying again when the bus cannot carry its request now. */
export const BUS_RETRY_AFTER_SECONDS = 1;

/** Failures that say the request reached no service, so a read may go once more. */
const RESENDABLE = new Set<RequestFailure['reason']>(['disconnected', 'lost']);

/** How long a stream abandoned in a drop waits for the link to tell its service to stop. */
const CANCEL_AFTER_DROP_MS = 30_000;

/** The bus cannot carry the request now: 503 with Retry-After, in every family's dialect. */
function unavailable(message: string): GatewayError {
  return new GatewayError('unavailable', message, null, null, BUS_RETRY_AFTER_SECONDS);
}

export interface RequestOptions {
  timeoutMs?: number;
  /** The trace the request belongs to (when tracing is on); the active one otherwise. */
  trace?: TraceContext;
  /** Told how the service served the request, when its reply says (model, channel, tokens). */
  onNote?: (note: ReplyNote) => void;
  /**
   * A read that may be sent twice: when the link drops before its answer, or the request was lost with a
   * server that left the cluster, it is sent once more as soon as the link is up, within its timeout.
   * Anything else fails at once with 503 and Retry-After.
   */
  idempotent?: boolean;
}

export interface StreamOptions {
  signal?: AbortSignal;
  /** How long to wait for the first frame and between frames. */
  idleTimeoutMs?: number;
  trace?: TraceContext;
  onNote?: (note: ReplyNote) => void;
}

/** Headers carrying the trace context, or none when tracing is off. */
function traceHeaders(trace: TraceContext | undefined): MsgHdrs | undefined {
  if (!tracingOn()) return undefined;
  const h = natsHeaders();
  injectTraceContext(h, trace);
  return h;
}

function tellNote(msg: Msg, onNote: ((note: ReplyNote) => void) | undefined): void {
  if (!onNote) return;
  const note = noteOf(msg.headers);
  if (note) onNote(note);
}

/** A request the connection would not write: too large for one message (413), or refused (503). */
function unsentError(name: string, failure: RequestFailure): GatewayError {
  if (failure.reason === 'too_large') {
    const limit = failure.limit === undefined ? 'the bus limit' : `${failure.limit} bytes`;
    return new GatewayError('payload_too_large', `The request is larger than one message of the bus takes (${limit}).`);
  }
  return unavailable(`The request to ${name} could not be sent`);
}

/** One frame of a streamed reply: raw bytes as the service sent them. */
export type StreamFrame = { kind: 'data'; data: Uint8Array } | { kind: 'end'; data: Uint8Array };

/** A reply envelope's data, or its error thrown. */
function okData(envelope: Uint8Array): unknown {
  const reply = RpcReply.parse(decodeJson(envelope));
  if (!reply.ok) throw GatewayError.fromBody(reply.error);
  return reply.data;
}

/**
 * The raw NATS client every process talks through: request/reply, streamed replies, broadcast events.
 * It applies the deployment's subject prefix in this one place.
 */
export class NatsBus {
  /** Passed by this process's transport before each reply it writes. */
  readonly beforeReply = new ReplyBarrier();
  /**
   * Replies too large for one NATS message: this process's transport parks its own there, and requests
   * redeem those of the services they call. An app with Redis gives it a store (`replyClaims.use`).
   */
  readonly replyClaims: ReplyClaims;
  private mux?: RequestMux;

  constructor(
    readonly connection: NatsConnection,
    readonly prefix: string,
  ) {
    this.replyClaims = new ReplyClaims(prefix);
  }

  subject(name: string): string {
    return this.prefix + name;
  }

  /** Request/reply on raw subjects and bytes (protocol requests such as JetStream publishes), shared by every request of this process. */
  get requests(): RequestMux {
    if (!this.mux) {
      this.mux = new RequestMux(this.connection);
      new LostRequestProbe(this.connection, this.mux, this.subject(SUBJECTS.ops.requestProbe));
    }
    return this.mux;
  }

  /** The connection's link to the server: up, or down between a drop and the reconnect. */
  get link(): NatsLink {
    return this.requests.link;
  }

  /** Unary request; resolves with the handler's data parsed by `schema`, or throws its GatewayError. */
  async request<S extends z.ZodType>(name: string, payload: unknown, schema: S, options: RequestOptions = {}): Promise<z.infer<S>> {
    return schema.parse(okData(await this.exchange(name, payload, options)));
  }

  /** Unary request on a subject of the typed map: its message and its reply checked against the subject's schemas. */
  call<R extends Rpc>(rpc: R, message: RpcMessage<R>, options: RequestOptions = {}): Promise<RpcReplyOf<R>> {
    return this.request<R['reply']>(rpc.subject, message, rpc.reply, options);
  }

  /**
   * Unary request whose answer goes on as it came: the handler's data as the JSON bytes it was encoded
   * to, neither decoded nor encoded again here (a failure is thrown as `request` throws it).
   */
  async requestJsonBytes(name: string, payload: unknown, options: RequestOptions = {}): Promise<Uint8Array> {
    const envelope = await this.exchange(name, payload, options);
    return replyDataBytes(envelope) ?? encodeJson(okData(envelope));
  }

  /** One request and its reply envelope's bytes, redeemed from the reply store when it came by claim check. */
  private async exchange(name: string, payload: unknown, options: RequestOptions): Promise<Uint8Array> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const deadline = Date.now() + timeoutMs;
    const data = encodeJson(payload);
    const headers = traceHeaders(options.trace);
    let msg: Msg;
    try {
      msg = await this.requests.request(this.subject(name), data, timeoutMs, { headers, probed: true });
    } catch (error) {
      if (!options.idempotent || !(error instanceof RequestFailure) || !RESENDABLE.has(error.reason)) throw this.failure(name, error);
      if (!(await this.link.whenUp(deadline - Date.now()))) throw this.failure(name, error);
      msg = await this.requests.request(this.subject(name), data, Math.max(1, deadline - Date.now()), { headers, probed: true }).catch((again: unknown) => {
        throw this.failure(name, again);
      });
    }
    tellNote(msg, options.onNote);
    const ref = msg.headers?.get(NATS_HEADERS.replyRef);
    return ref ? this.redeem(name, ref) : msg.data;
  }

  /** A request that ended without its answer, as the domain error its caller gets. */
  private failure(name: string, error: unknown): unknown {
    if (!(error instanceof RequestFailure)) return error;
    switch (error.reason) {
      case 'no_responders':
        return unavailable(`No service answers ${name}`);
      case 'too_large':
      case 'unsent':
        return unsentError(name, error);
      case 'timeout':
        gatewayMetrics.natsTimeouts.inc({ subject: name });
        return unavailable(`${name} did not answer in time`);
      case 'disconnected':
        return unavailable(`The bus link dropped before ${name} answered`);
      case 'lost':
        return unavailable(`The request to ${name} was lost with a NATS server that left the cluster`);
      case 'closed':
        return unavailable(`The connection closed before ${name} answered`);
    }
  }

  /** A reply that came by claim check: taken once from the reply store. */
  private async redeem(name: string, key: string): Promise<Uint8Array> {
    const store = this.replyClaims.store;
    if (!store) throw unavailable(`The answer of ${name} is larger than one message and this process has no reply store`);
    if (!this.replyClaims.owns(key)) throw new GatewayError('internal', `The answer of ${name} names a reply outside this deployment`);
    let data: Uint8Array | null;
    try {
      data = await store.take(key);
    } catch {
      throw unavailable(`The answer of ${name} could not be read from the reply store`);
    }
    if (data === null) throw unavailable(`The answer of ${name} expired before it could be read`);
    return data;
  }

  /** Broadcast to every subscriber (no queue group). */
  publish(name: string, payload: unknown): void {
    this.connection.publish(this.subject(name), encodeJson(payload));
  }

  /** Subscribe to a broadcast subject; every process gets its own copy. */
  subscribe(name: string, onMessage: (payload: unknown) => void): Subscription {
    return this.connection.subscribe(this.subject(name), {
      callback: (error, msg) => {
        if (!error) onMessage(decodeJson(msg.data));
      },
    });
  }

  /**
   * Streamed request: yields each data frame as the service publishes it, then the end frame.
   * Aborting `signal` tells the service to cancel its upstream call.
   */
  async *stream(name: string, payload: unknown, options: StreamOptions = {}): AsyncGenerator<StreamFrame> {
    const h = natsHeaders();
    h.set(NATS_HEADERS.stream, '1');
    if (tracingOn()) injectTraceContext(h, options.trace);
    const replies = this.requests.stream(this.subject(name), encodeJson(payload), options.idleTimeoutMs ?? 300_000, { headers: h, probed: true });
    const cancelSubject = this.subject(SUBJECTS.streamCancel(serviceOfSubject(name)));
    const cancel = () => this.connection.publish(cancelSubject, encodeText(replies.reply));
    const onAbort = () => {
      cancel();
      replies.close();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let finished = false;
    let first = true;
    try {
      for await (const msg of replies) {
        const kind = msg.headers?.get(NATS_HEADERS.kind);
        if (kind === STREAM_KINDS.data) {
          // Only the first frame may carry a note (the response cache's outcome, for the caller's headers).
          if (first) tellNote(msg, options.onNote);
          first = false;
          yield { kind: 'data', data: msg.data };
        } else if (kind === STREAM_KINDS.end) {
          finished = true;
          tellNote(msg, options.onNote);
          yield { kind: 'end', data: msg.data };
          return;
        } else if (kind === STREAM_KINDS.error) {
          finished = true;
          tellNote(msg, options.onNote);
          const reply = RpcReply.parse(decodeJson(msg.data));
          throw reply.ok ? new GatewayError('internal', 'Malformed stream error') : GatewayError.fromBody(reply.error);
        } else {
          // A unary reply to a stream request: the handler failed before streaming.
          finished = true;
          const reply = RpcReply.parse(decodeJson(msg.data));
          if (!reply.ok) throw GatewayError.fromBody(reply.error);
          yield { kind: 'end', data: encodeJson(reply.data) };
          return;
        }
      }
    } catch (error) {
      if (!(error instanceof RequestFailure)) throw error;
      if (error.reason !== 'timeout') {
        // A lost stream is told to stop too (below), in case a service started it after all.
        finished = error.reason !== 'lost';
        // The service may still be streaming to an inbox nobody reads: told to stop once the link is back.
        if (error.reason === 'disconnected') {
          void this.link.whenUp(CANCEL_AFTER_DROP_MS).then((up) => {
            if (up) cancel();
          });
        }
        throw this.failure(name, error);
      }
      // An idle timeout: handled below like any stream that stops without its end.
      gatewayMetrics.natsTimeouts.inc({ subject: name });
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      if (!finished && !options.signal?.aborted) cancel();
      replies.close();
    }
    if (!options.signal?.aborted) throw new GatewayError('upstream_timeout', `${name} stream went silent`);
  }
}
