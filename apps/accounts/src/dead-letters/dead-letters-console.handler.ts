import { RpcHandler } from '@gateway/platform';
import {
  ConsoleDeadLetterId,
  ConsoleDeadLettersRequest,
  GatewayError,
  parseOrThrow,
  type ConsoleDeadLetter,
  type ConsoleDeadLetterPage,
  RPCS,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DeadLetterService } from './dead-letter.service';

/** The operator console's dead letters: a page at a time, and one in full. */
@Controller()
export class DeadLettersConsoleHandler {
  constructor(@Inject(DeadLetterService) private readonly deadLetters: DeadLetterService) {}

  @RpcHandler(RPCS.accounts.console.deadLetters)
  page(@Payload() payload: unknown): Promise<ConsoleDeadLetterPage> {
    return this.deadLetters.page(parseOrThrow(ConsoleDeadLettersRequest, payload ?? {}));
  }

  @RpcHandler(RPCS.accounts.console.deadLetter)
  async get(@Payload() payload: unknown): Promise<ConsoleDeadLetter> {
    const { id } = parseOrThrow(ConsoleDeadLetterId, payload ?? {});
    const letter = await this.deadLetters.get(id);
    if (!letter) throw GatewayError.notFound(`No dead letter ${id} is stored: it was replayed or has expired.`, 'id');
    return letter;
  }
}
