import { GatewayError, OaicJsonReply, type OaicCallPayload, type TenantCaller } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { toDialectError } from '../errors/error-dialect';
import { finishReasonsOf } from '../ops/finish-reasons';
import { clientRequestIdOf } from '../routing/request-id';
import type { RouteRequest } from '../routing/route-request';
import { ClaimCheckStore } from './claim-check.store';
import { OAIC_ENV, type OaicEnv } from './oaic-env';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' };

export function callerOf(request: RouteRequest): TenantCaller {
  const caller: TenantCaller = {
    requestId: request.requestId,
    tenantId: request.key.tenantId,
    keyId: request.key.keyId,
    keyKind: request.key.kind,
    route: request.route.id,
  };
  const clientRequestId = clientRequestIdOf(request.raw.headers);
  return clientRequestId === undefined ? caller : { ...caller, clientRequestId };
}

/**
 * Carries oaic requests to the chat service over NATS: unary JSON replies, and SSE streams relayed
 * frame by frame as they arrive. A client that goes away aborts the stream, which cancels the upstream.
 */
@Injectable()
export class OaicRelayService {
  constructor(
    private readonly bus: NatsBus,
    private readonly claimCheck: ClaimCheckStore,
    @Inject(OAIC_ENV) private readonly env: OaicEnv,
  ) {}

  /** The NATS payload; a body over the claim-check threshold travels as a Redis reference. */
  async payload(request: RouteRequest): Promise<OaicCallPayload> {
    const caller = callerOf(request);
    const declared = Number(request.raw.headers['content-length']);
    if (Number.isFinite(declared) && declared < this.env.CLAIM_CHECK_MIN_BYTES) return { ...caller, body: request.body };
    const json = JSON.stringify(request.body);
    if (Buffer.byteLength(json) < this.env.CLAIM_CHECK_MIN_BYTES) return { ...caller, body: request.body };
    return { ...caller, bodyRef: await this.claimCheck.park(caller, json) };
  }

  async json(subject: string, request: RouteRequest, payload?: unknown): Promise<OaicJsonReply> {
    const raw = request.raw;
    const reply = await this.bus.request(subject, payload ?? (await this.payload(request)), OaicJsonReply, {
      timeoutMs: this.env.CHAT_TIMEOUT_MS,
      trace: raw.traceContext ?? undefined,
      onNote: (note) => (raw.replyNote = note),
    });
    raw.traceSpan?.setAttribute('gen_ai.response.finish_reasons', finishReasonsOf(reply));
    return reply;
  }

  /**
   * Relays a streamed reply as SSE. Until the first frame arrives nothing is written, so an early
   * failure (bad model, all channels down) still becomes a normal error response with its status.
   */
  async sse(subject: string, request: RouteRequest, payload?: unknown): Promise<undefined> {
    const abort = new AbortController();
    const { reply } = request;
    const frames = this.bus.stream(subject, payload ?? (await this.payload(request)), {
      signal: abort.signal,
      trace: request.raw.traceContext ?? undefined,
      onNote: (note) => (request.raw.replyNote = note),
    });
    const raw: ServerResponse = reply.raw;
    raw.on('close', () => {
      if (!raw.writableFinished) abort.abort();
    });
    const first = await frames.next();
    reply.hijack();
    // The head leaves with the first event, in one write (the first frame is already here to send).
    raw.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
    try {
      if (!first.done && first.value.kind === 'data') {
        raw.write(first.value.data);
        request.raw.firstEventSeconds = reply.elapsedTime / 1000;
      }
      if (!first.done && first.value.kind !== 'end') {
        for await (const frame of frames) {
          if (frame.kind === 'data') raw.write(frame.data);
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) raw.write(this.errorEvent(error, request));
    } finally {
      if (!raw.writableEnded) raw.end();
    }
    return undefined;
  }

  /** A failure after the stream began: one SSE event in the route family's dialect, which the SDKs raise as an error. */
  private errorEvent(error: unknown, request: RouteRequest): string {
    const gatewayError = error instanceof GatewayError ? error : new GatewayError('internal', 'Internal error');
    const data = `data: ${JSON.stringify(toDialectError(request.route.family, gatewayError, request.requestId).body)}\n\n`;
    return request.route.family === 'msgc' ? `event: error\n${data}` : data;
  }
}
