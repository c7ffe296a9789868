import { CONSOLE_DATA_SUBJECTS, ConsoleKeyLimitsMessage, ConsoleKeyLimitsSetMessage, parseOrThrow, type ConsoleKeyLimits } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { KeyLimitsService } from './key-limits.service';

/** The tenant console's per-key limits: show and set a key's own. */
@Controller()
export class KeyLimitsHandler {
  constructor(@Inject(KeyLimitsService) private readonly limits: KeyLimitsService) {}

  @MessagePattern(CONSOLE_DATA_SUBJECTS.keyLimits.show)
  show(@Payload() payload: unknown): Promise<ConsoleKeyLimits> {
    const { tenant, id } = parseOrThrow(ConsoleKeyLimitsMessage, payload);
    return this.limits.show(tenant, id);
  }

  @MessagePattern(CONSOLE_DATA_SUBJECTS.keyLimits.set)
  set(@Payload() payload: unknown): Promise<ConsoleKeyLimits> {
    const { tenant, id, limits } = parseOrThrow(ConsoleKeyLimitsSetMessage, payload);
    return this.limits.set(tenant, id, limits);
  }
}
