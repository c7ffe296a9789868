import {
  ConsoleDeadLetterId,
  ConsoleDeadLettersRequest,
  GatewayError,
  parseOrThrow,
  SUBJECTS,
  type ConsoleDeadLetter,
  type ConsoleDeadLetterPage,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DeadLetterService } from './dead-letter.service';

/** The operator console's dead letters: a page at a time, and one in full. */
@Controller()
export class DeadLettersConsoleHandler {
  constructor(@Inject(DeadLetterService) private readonly deadLetters: DeadLetterService) {}

  @MessagePattern(SUBJECTS.accounts.console.deadLetters)
  page(@Payload() payload: unknown): Promise<ConsoleDeadLetterPage> {
    return this.deadLetters.page(parseOrThrow(ConsoleDeadLettersRequest, payload ?? {}));
  }

  @MessagePattern(SUBJECTS.accounts.console.deadLetter)
  async get(@Payload() payload: unknown): Promise<ConsoleDeadLetter> {
    const { id } = parseOrThrow(ConsoleDeadLetterId, payload ?? {});
    const letter = await this.deadLetters.get(id);
    if (!letter) throw GatewayError.notFound(`No dead letter ${id} is stored: it was replayed or has expired.`, 'id');
    return letter;
  }
}
