import { RpcHandler } from '@gateway/platform';
import { AcceptInviteRequest, ConsoleInviteRequest, ConsoleUsersRequest, InviteTokenRequest, parseOrThrow, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { PeopleService } from './people.service';

@Controller()
export class PeopleHandler {
  constructor(@Inject(PeopleService) private readonly people: PeopleService) {}

  @RpcHandler(RPCS.accounts.console.users.invite)
  invite(@Payload() payload: unknown) {
    return this.people.invite(parseOrThrow(ConsoleInviteRequest, payload));
  }

  @RpcHandler(RPCS.accounts.console.users.inviteInfo)
  inviteInfo(@Payload() payload: unknown) {
    return this.people.inviteInfo(parseOrThrow(InviteTokenRequest, payload).token);
  }

  @RpcHandler(RPCS.accounts.console.users.acceptInvite)
  acceptInvite(@Payload() payload: unknown) {
    return this.people.acceptInvite(parseOrThrow(AcceptInviteRequest, payload));
  }

  @RpcHandler(RPCS.accounts.console.users.list)
  list(@Payload() payload: unknown) {
    return this.people.list(parseOrThrow(ConsoleUsersRequest, payload).tenant);
  }
}
