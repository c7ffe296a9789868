import { RpcHandler } from '@gateway/platform';
import { DeadLetterListRequest, DeadLetterReplayRequest, parseOrThrow, type DeadLetterList, type DeadLetterReplayReply, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DeadLetterService } from './dead-letter.service';

@Controller()
export class DeadLettersHandler {
  constructor(@Inject(DeadLetterService) private readonly deadLetters: DeadLetterService) {}

  @RpcHandler(RPCS.accounts.deadLetters.list)
  list(@Payload() payload: unknown): Promise<DeadLetterList> {
    return this.deadLetters.list(parseOrThrow(DeadLetterListRequest, payload ?? {}));
  }

  @RpcHandler(RPCS.accounts.deadLetters.replay)
  replay(@Payload() payload: unknown): Promise<DeadLetterReplayReply> {
    return this.deadLetters.replay(parseOrThrow(DeadLetterReplayRequest, payload ?? {}));
  }
}
