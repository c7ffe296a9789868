import {
  isMusicVerb,
  MediaTaskReply,
  MusicCreated,
  musicEnvelope,
  MusicTaskView,
  musicTextProblem,
  OaicJsonReply,
  type MusicQuery,
  type MusicVerb,
  type RelayShape,
  type RouteDef,
  type RouteRelay,
} from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { EDGE_FILES_ENV, type EdgeFilesEnv } from '../files/files-env';
import { MEDIA_EDGE_ENV, type MediaEdgeEnv } from '../media/media-env';
import { publicOriginOf } from '../media/public-origin';
import type { RouteRequest } from '../routing/route-request';
import { ChatRelay } from './chat-relay.service';
import { isRead } from './read-route';
import { callerOf } from './tenant-call';

const MUSIC_TIMEOUT = { timeoutMs: 30_000 };

function musicVerbOf(relay: RouteRelay): MusicVerb | undefined {
  const verb = relay.fields?.verb;
  return typeof verb === 'string' && isMusicVerb(verb) ? verb : undefined;
}

type Payload = Record<string, unknown>;

/** One service's convention: the payload's base (who calls, and the body) and how a unary reply is read. */
export interface RelayShaper {
  /** Throws at start-up when a route's relay lacks what this shape needs. */
  check?(route: RouteDef): void;
  base(request: RouteRequest, relay: RouteRelay): Payload | Promise<Payload>;
  answer(relay: RouteRelay, request: RouteRequest, payload: Payload): Promise<unknown>;
}

/** The payload conventions the route table names (RelayShape), one per answering service. */
@Injectable()
export class RelayShapes {
  private readonly shapers: Record<RelayShape, RelayShaper>;

  constructor(
    private readonly bus: NatsBus,
    private readonly chat: ChatRelay,
    @Inject(MEDIA_EDGE_ENV) private readonly mediaEnv: MediaEdgeEnv,
    @Inject(EDGE_FILES_ENV) private readonly filesEnv: EdgeFilesEnv,
  ) {
    this.shapers = { chat: this.toChat(), files: this.toFiles(), media: this.toMedia(), music: this.toMusic(), 'music-query': this.toMusicQuery() };
  }

  of(shape: RelayShape): RelayShaper {
    return this.shapers[shape];
  }

  /** The body inline or by claim check; replies under CHAT_TIMEOUT_MS with their finish reasons traced. */
  private toChat(): RelayShaper {
    return {
      base: (request) => (request.route.body ? this.chat.payload(request) : callerOf(request)),
      answer: (relay, request, payload) => this.chat.answer(relay.subject, request, payload),
    };
  }

  private toFiles(): RelayShaper {
    return {
      base: (request) => (request.route.body ? { ...callerOf(request), body: request.body } : callerOf(request)),
      answer: (relay, request, payload) =>
        this.bus.request(relay.subject, payload, OaicJsonReply, { timeoutMs: this.filesEnv.FILES_TIMEOUT_MS, idempotent: isRead(request) }),
    };
  }

  /** The caller carries the public origin the result links are signed for. */
  private toMedia(): RelayShaper {
    return {
      base: (request) => {
        const caller = { ...callerOf(request), origin: publicOriginOf(request, this.mediaEnv.PUBLIC_BASE_URL) };
        return request.route.body ? { ...caller, body: request.body } : caller;
      },
      answer: (relay, request, payload) =>
        this.bus.request(relay.subject, payload, MediaTaskReply, {
          timeoutMs: this.mediaEnv.MEDIA_TIMEOUT_MS,
          idempotent: isRead(request),
          trace: request.raw.traceContext ?? undefined,
          onNote: (note) => (request.raw.replyNote = note),
        }),
    };
  }

  /** The family's text limits are checked before the call; answers come in the music envelope. */
  private toMusic(): RelayShaper {
    return {
      check: (route) => {
        if (!route.relay || !musicVerbOf(route.relay)) throw new Error(`Route ${route.id} relays to music without a verb in its fields`);
      },
      base: (request, relay) => {
        const verb = musicVerbOf(relay)!;
        const body = request.body as Record<string, unknown>;
        const tooLong = musicTextProblem(verb, body);
        if (tooLong) throw tooLong;
        return { ...callerOf(request), body };
      },
      answer: async (relay, _request, payload) => musicEnvelope(await this.bus.request(relay.subject, payload, MusicCreated, MUSIC_TIMEOUT)),
    };
  }

  private toMusicQuery(): RelayShaper {
    return {
      base: (request) => ({ tenantId: request.key.tenantId, taskId: (request.query as MusicQuery).taskId }),
      answer: async (relay, request, payload) =>
        musicEnvelope(await this.bus.request(relay.subject, payload, MusicTaskView, { ...MUSIC_TIMEOUT, idempotent: isRead(request) })),
    };
  }
}
