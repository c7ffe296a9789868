import {
  DEAD_LETTER_SUBJECTS,
  DeadLetterListRequest,
  DeadLetterReplayRequest,
  parseOrThrow,
  type DeadLetterList,
  type DeadLetterReplayReply,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DeadLetterService } from './dead-letter.service';

@Controller()
export class DeadLettersHandler {
  constructor(@Inject(DeadLetterService) private readonly deadLetters: DeadLetterService) {}

  @MessagePattern(DEAD_LETTER_SUBJECTS.list)
  list(@Payload() payload: unknown): Promise<DeadLetterList> {
    return this.deadLetters.list(parseOrThrow(DeadLetterListRequest, payload ?? {}));
  }

  @MessagePattern(DEAD_LETTER_SUBJECTS.replay)
  replay(@Payload() payload: unknown): Promise<DeadLetterReplayReply> {
    return this.deadLetters.replay(parseOrThrow(DeadLetterReplayRequest, payload ?? {}));
  }
}
