import { RpcHandler } from '@gateway/platform';
import { BalanceShowRequest, BalanceTopupMessage, parseOrThrow, type BalanceView, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { BalanceService } from './balance.service';

@Controller()
export class BalanceHandler {
  constructor(@Inject(BalanceService) private readonly balance: BalanceService) {}

  @RpcHandler(RPCS.accounts.balance.topup)
  topup(@Payload() payload: unknown): Promise<BalanceView> {
    const request = parseOrThrow(BalanceTopupMessage, payload);
    return this.balance.topup(request.tenant, BigInt(request.amountMicros));
  }

  @RpcHandler(RPCS.accounts.balance.show)
  show(@Payload() payload: unknown): Promise<BalanceView> {
    return this.balance.show(parseOrThrow(BalanceShowRequest, payload).tenant);
  }
}
