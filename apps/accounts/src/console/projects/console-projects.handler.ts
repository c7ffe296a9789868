import {
  ConsoleBudgetClearMessage,
  ConsoleBudgetSetMessage,
  ConsoleProjectsMessage,
  ConsoleTenantProjectsMessage,
  parseOrThrow,
  RPCS,
  type BudgetView,
  type ConsoleProjectList,
} from '@gateway/contracts';
import { RpcHandler } from '@gateway/platform';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConsoleProjectsService } from './console-projects.service';

@Controller()
export class ConsoleProjectsHandler {
  constructor(@Inject(ConsoleProjectsService) private readonly projects: ConsoleProjectsService) {}

  @RpcHandler(RPCS.accounts.console.projects.list)
  async list(@Payload() payload: unknown): Promise<ConsoleProjectList> {
    const { tenant, userId } = parseOrThrow(ConsoleProjectsMessage, payload);
    return { data: await this.projects.list(tenant, userId) };
  }

  @RpcHandler(RPCS.accounts.console.projects.ofTenant)
  async ofTenant(@Payload() payload: unknown): Promise<ConsoleProjectList> {
    return { data: await this.projects.ofTenant(parseOrThrow(ConsoleTenantProjectsMessage, payload).tenant) };
  }

  @RpcHandler(RPCS.accounts.console.projects.setBudget)
  setBudget(@Payload() payload: unknown): Promise<BudgetView> {
    return this.projects.setBudget(parseOrThrow(ConsoleBudgetSetMessage, payload));
  }

  @RpcHandler(RPCS.accounts.console.projects.clearBudget)
  async clearBudget(@Payload() payload: unknown): Promise<{ cleared: boolean }> {
    return { cleared: await this.projects.clearBudget(parseOrThrow(ConsoleBudgetClearMessage, payload)) };
  }
}
