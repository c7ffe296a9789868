import {
  BudgetListRequest,
  BudgetSetMessage,
  BudgetShowMessage,
  KeyBudgetsRequest,
  parseOrThrow,
  RPCS,
  type BudgetRule,
  type BudgetView,
} from '@gateway/contracts';
import { RpcHandler } from '@gateway/platform';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { BudgetsService } from './budgets.service';

@Controller()
export class BudgetsHandler {
  constructor(@Inject(BudgetsService) private readonly budgets: BudgetsService) {}

  @RpcHandler(RPCS.accounts.budgets.set)
  set(@Payload() payload: unknown): Promise<BudgetView> {
    return this.budgets.set(parseOrThrow(BudgetSetMessage, payload));
  }

  @RpcHandler(RPCS.accounts.budgets.show)
  async show(@Payload() payload: unknown): Promise<{ budget: BudgetView | null }> {
    return { budget: await this.budgets.show(parseOrThrow(BudgetShowMessage, payload)) };
  }

  @RpcHandler(RPCS.accounts.budgets.clear)
  async clear(@Payload() payload: unknown): Promise<{ cleared: boolean }> {
    return { cleared: await this.budgets.clear(parseOrThrow(BudgetShowMessage, payload)) };
  }

  @RpcHandler(RPCS.accounts.budgets.ofKey)
  ofKey(@Payload() payload: unknown): Promise<BudgetRule[]> {
    return this.budgets.ofKey(parseOrThrow(KeyBudgetsRequest, payload).keyId);
  }

  @RpcHandler(RPCS.accounts.budgets.list)
  list(@Payload() payload: unknown): Promise<BudgetView[]> {
    return this.budgets.list(parseOrThrow(BudgetListRequest, payload).tenant);
  }
}
