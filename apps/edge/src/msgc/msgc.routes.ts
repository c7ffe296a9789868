import { SUBJECTS } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { OaicRelayService } from '../oaic/oaic-relay.service';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';

const MSGC = SUBJECTS.chat.msgc;

function wantsStream(request: RouteRequest): boolean {
  return (request.body as { stream?: unknown } | undefined)?.stream === true;
}

/** The msgc family's chat routes: bodies already checked by the route table, relayed to the chat service. */
@Injectable()
export class MsgcRoutes {
  constructor(private readonly relay: OaicRelayService) {}

  @RouteHandler('msgc.messages')
  messages(request: RouteRequest): Promise<unknown> {
    return wantsStream(request) ? this.relay.sse(MSGC.messages, request) : this.relay.json(MSGC.messages, request);
  }

  @RouteHandler('msgc.count_tokens')
  countTokens(request: RouteRequest): Promise<unknown> {
    return this.relay.json(MSGC.countTokens, request);
  }
}
