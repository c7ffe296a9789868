import { CACHE_HEADER, OaicJsonReply, parseCacheDirective, requestCacheOf, type OaicCallPayload, type ReplyNote } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { OAIC_ENV, type OaicEnv } from '../oaic/oaic-env';
import { finishReasonsOf } from '../ops/finish-reasons';
import type { RouteRequest } from '../routing/route-request';
import { ClaimCheckStore } from './claim-check.store';
import { isRead } from './read-route';
import { callerOf } from './tenant-call';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The request's cache (its key's, as its header narrows it); a bad header is refused naming it, cache on or off. */
function cacheOf(request: RouteRequest): OaicCallPayload['cache'] {
  const header = request.raw.headers[CACHE_HEADER];
  const settings = request.key.cache;
  if ((header === undefined && !settings) || !request.route.relay?.cached) return undefined;
  return requestCacheOf(settings, parseCacheDirective(header));
}

/** Tells the reply the response cache's outcome (`x-gateway-cache`), before its headers go out. */
export function noteCacheOutcome(request: RouteRequest, note: ReplyNote): void {
  if (note.cache && !request.reply.sent) void request.reply.header(CACHE_HEADER, note.cache);
}

/** Carries calls to the chat service: the body inline or by claim check, and unary JSON replies. */
@Injectable()
export class ChatRelay {
  constructor(
    private readonly bus: NatsBus,
    private readonly claimCheck: ClaimCheckStore,
    @Inject(OAIC_ENV) private readonly env: OaicEnv,
  ) {}

  /**
   * The NATS payload; a body over the claim-check threshold travels as a Redis reference. A body the
   * route's schema parsed is marked checked: the chat service parses it no second time.
   */
  async payload(request: RouteRequest): Promise<OaicCallPayload> {
    const caller: OaicCallPayload = callerOf(request);
    if (request.route.body) caller.checked = true;
    const cache = cacheOf(request);
    if (cache) caller.cache = cache;
    const declared = Number(request.raw.headers['content-length']);
    if (Number.isFinite(declared) && declared < this.env.CLAIM_CHECK_MIN_BYTES) return Object.assign(caller, { body: request.body });
    const json = JSON.stringify(request.body);
    if (Buffer.byteLength(json) < this.env.CLAIM_CHECK_MIN_BYTES) return Object.assign(caller, { body: request.body });
    return Object.assign(caller, { bodyRef: await this.claimCheck.park(caller, json) });
  }

  /**
   * A unary answer for the client: with tracing off, the chat service's JSON bytes as they came (nothing
   * here reads them); with it on, read for the span's finish reasons.
   */
  async answer(subject: string, request: RouteRequest, payload?: unknown): Promise<OaicJsonReply | Buffer> {
    const raw = request.raw;
    if (raw.traceSpan) return this.json(subject, request, payload);
    const bytes = await this.bus.requestJsonBytes(subject, payload ?? (await this.payload(request)), {
      timeoutMs: this.env.CHAT_TIMEOUT_MS,
      idempotent: isRead(request),
      trace: raw.traceContext ?? undefined,
      onNote: (note) => {
        raw.replyNote = note;
        noteCacheOutcome(request, note);
      },
    });
    request.reply.type(JSON_TYPE);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async json(subject: string, request: RouteRequest, payload?: unknown): Promise<OaicJsonReply> {
    const raw = request.raw;
    const reply = await this.bus.request(subject, payload ?? (await this.payload(request)), OaicJsonReply, {
      timeoutMs: this.env.CHAT_TIMEOUT_MS,
      idempotent: isRead(request),
      trace: raw.traceContext ?? undefined,
      onNote: (note) => {
        raw.replyNote = note;
        noteCacheOutcome(request, note);
      },
    });
    raw.traceSpan?.setAttribute('gen_ai.response.finish_reasons', finishReasonsOf(reply));
    return reply;
  }
}
