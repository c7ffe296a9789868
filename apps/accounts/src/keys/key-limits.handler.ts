import { RpcHandler } from '@gateway/platform';
import { ConsoleKeyLimitsMessage, ConsoleKeyLimitsSetMessage, parseOrThrow, type ConsoleKeyLimits, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { KeyLimitsService } from './key-limits.service';

/** The tenant console's per-key limits: show and set a key's own. */
@Controller()
export class KeyLimitsHandler {
  constructor(@Inject(KeyLimitsService) private readonly limits: KeyLimitsService) {}

  @RpcHandler(RPCS.accounts.console.keyLimits.show)
  show(@Payload() payload: unknown): Promise<ConsoleKeyLimits> {
    const { tenant, id } = parseOrThrow(ConsoleKeyLimitsMessage, payload);
    return this.limits.show(tenant, id);
  }

  @RpcHandler(RPCS.accounts.console.keyLimits.set)
  set(@Payload() payload: unknown): Promise<ConsoleKeyLimits> {
    const { tenant, id, limits } = parseOrThrow(ConsoleKeyLimitsSetMessage, payload);
    return this.limits.set(tenant, id, limits);
  }
}
