import {
  GatewayError,
  MusicCallbackReply,
  MusicCreated,
  MusicTaskView,
  musicEnvelope,
  SUBJECTS,
  type MusicCreatedAnswer,
  type MusicTaskAnswer,
  musicTextProblem,
  type MusicCreatePayload,
  type MusicQuery,
  type MusicQueryKind,
  type MusicVerb,
} from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import { callerOf } from '../oaic/oaic-relay.service';
import type { RouteRequest } from '../routing/route-request';

const TIMEOUT = { timeoutMs: 30_000 };

/** Carries music requests to the music service over NATS and wraps its answers in the family's envelope. */
@Injectable()
export class MusicRelayService {
  constructor(private readonly bus: NatsBus) {}

  async create(verb: MusicVerb, request: RouteRequest): Promise<MusicCreatedAnswer> {
    const body = request.body as Record<string, unknown>;
    const tooLong = musicTextProblem(verb, body);
    if (tooLong) throw tooLong;
    const payload: MusicCreatePayload = { ...callerOf(request), verb, body };
    return musicEnvelope(await this.bus.request(SUBJECTS.music.create, payload, MusicCreated, TIMEOUT));
  }

  async query(kind: MusicQueryKind, request: RouteRequest): Promise<MusicTaskAnswer> {
    const { taskId } = request.query as MusicQuery;
    return musicEnvelope(await this.bus.request(SUBJECTS.music.query, { tenantId: request.key.tenantId, kind, taskId }, MusicTaskView, TIMEOUT));
  }

  /** An upstream's callback: accepted or not, the caller learns nothing beyond "not found" for an unknown token. */
  async callback(token: string, body: unknown): Promise<void> {
    const { accepted } = await this.bus.request(SUBJECTS.music.callback, { token, body }, MusicCallbackReply, TIMEOUT);
    if (!accepted) throw GatewayError.notFound('No music task answers to this callback URL.');
  }
}
