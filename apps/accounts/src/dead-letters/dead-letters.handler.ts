import { DeadLetterListRequest, DeadLetterReplayRequest, parseOrThrow, SUBJECTS, type DeadLetterList, type DeadLetterReplayReply } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DeadLetterService } from './dead-letter.service';

@Controller()
export class DeadLettersHandler {
  constructor(@Inject(DeadLetterService) private readonly deadLetters: DeadLetterService) {}

  @MessagePattern(SUBJECTS.accounts.deadLetters.list)
  list(@Payload() payload: unknown): Promise<DeadLetterList> {
    return this.deadLetters.list(parseOrThrow(DeadLetterListRequest, payload ?? {}));
  }

  @MessagePattern(SUBJECTS.accounts.deadLetters.replay)
  replay(@Payload() payload: unknown): Promise<DeadLetterReplayReply> {
    return this.deadLetters.replay(parseOrThrow(DeadLetterReplayRequest, payload ?? {}));
  }
}
