import { RpcHandler } from '@gateway/platform';
import {
  OpenOperatorSessionMessage,
  parseOrThrow,
  SessionListRequest,
  SessionResolveRequest,
  SessionRevokeRequest,
  SignInMessage,
  SignOutMessage,
  type ConsoleSessionContext,
  type ConsoleSessionIssued,
  RPCS,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { PeopleService } from '../people/people.service';
import { SessionsService } from './sessions.service';

@Controller()
export class SessionsHandler {
  constructor(
    @Inject(SessionsService) private readonly sessions: SessionsService,
    @Inject(PeopleService) private readonly people: PeopleService,
  ) {}

  @RpcHandler(RPCS.accounts.console.sessions.signIn)
  signIn(@Payload() payload: unknown): Promise<ConsoleSessionIssued> {
    return this.people.signIn(parseOrThrow(SignInMessage, payload));
  }

  /** The edge has checked the admin token; accounts only records the operator's session. */
  @RpcHandler(RPCS.accounts.console.sessions.openOperator)
  openOperator(@Payload() payload: unknown): Promise<ConsoleSessionIssued> {
    const { client, previousTokenHash } = parseOrThrow(OpenOperatorSessionMessage, payload);
    return this.sessions.issue(null, client, previousTokenHash);
  }

  @RpcHandler(RPCS.accounts.console.sessions.resolve)
  resolve(@Payload() payload: unknown): Promise<ConsoleSessionContext | null> {
    return this.sessions.resolve(parseOrThrow(SessionResolveRequest, payload).tokenHash);
  }

  @RpcHandler(RPCS.accounts.console.sessions.signOut)
  signOut(@Payload() payload: unknown) {
    return this.sessions.signOut(parseOrThrow(SignOutMessage, payload).tokenHash);
  }

  @RpcHandler(RPCS.accounts.console.sessions.revoke)
  revoke(@Payload() payload: unknown) {
    return this.sessions.revoke(parseOrThrow(SessionRevokeRequest, payload));
  }

  @RpcHandler(RPCS.accounts.console.sessions.list)
  list(@Payload() payload: unknown) {
    return this.sessions.list(parseOrThrow(SessionListRequest, payload));
  }
}
