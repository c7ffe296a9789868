import { BalanceShowRequest, BalanceTopupMessage, parseOrThrow, SUBJECTS, type BalanceView } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BalanceService } from './balance.service';

@Controller()
export class BalanceHandler {
  constructor(@Inject(BalanceService) private readonly balance: BalanceService) {}

  @MessagePattern(SUBJECTS.accounts.balance.topup)
  topup(@Payload() payload: unknown): Promise<BalanceView> {
    const request = parseOrThrow(BalanceTopupMessage, payload);
    return this.balance.topup(request.tenant, BigInt(request.amountMicros));
  }

  @MessagePattern(SUBJECTS.accounts.balance.show)
  show(@Payload() payload: unknown): Promise<BalanceView> {
    return this.balance.show(parseOrThrow(BalanceShowRequest, payload).tenant);
  }
}
