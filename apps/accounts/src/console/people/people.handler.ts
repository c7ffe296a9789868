import { AcceptInviteRequest, CONSOLE_SUBJECTS, ConsoleInviteRequest, ConsoleUsersRequest, InviteTokenRequest, parseOrThrow } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { PeopleService } from './people.service';

@Controller()
export class PeopleHandler {
  constructor(@Inject(PeopleService) private readonly people: PeopleService) {}

  @MessagePattern(CONSOLE_SUBJECTS.users.invite)
  invite(@Payload() payload: unknown) {
    return this.people.invite(parseOrThrow(ConsoleInviteRequest, payload));
  }

  @MessagePattern(CONSOLE_SUBJECTS.users.inviteInfo)
  inviteInfo(@Payload() payload: unknown) {
    return this.people.inviteInfo(parseOrThrow(InviteTokenRequest, payload).token);
  }

  @MessagePattern(CONSOLE_SUBJECTS.users.acceptInvite)
  acceptInvite(@Payload() payload: unknown) {
    return this.people.acceptInvite(parseOrThrow(AcceptInviteRequest, payload));
  }

  @MessagePattern(CONSOLE_SUBJECTS.users.list)
  list(@Payload() payload: unknown) {
    return this.people.list(parseOrThrow(ConsoleUsersRequest, payload).tenant);
  }
}
