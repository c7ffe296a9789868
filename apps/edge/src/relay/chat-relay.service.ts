import { OaicJsonReply, type OaicCallPayload } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { OAIC_ENV, type OaicEnv } from '../oaic/oaic-env';
import { finishReasonsOf } from '../ops/finish-reasons';
import type { RouteRequest } from '../routing/route-request';
import { ClaimCheckStore } from './claim-check.store';
import { callerOf } from './tenant-call';

/** Carries calls to the chat service: the body inline or by claim check, and unary JSON replies. */
@Injectable()
export class ChatRelay {
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
}
