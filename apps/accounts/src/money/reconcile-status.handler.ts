import { RpcHandler } from '@gateway/platform';
import { ConsoleReconcileRequest, parseOrThrow, type ConsoleReconcileStatus, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ReconcileStatusService } from './reconcile-status.service';

/** The operator console's reconciliation page: the last run over every tenant, and a new one. */
@Controller()
export class ReconcileStatusHandler {
  constructor(@Inject(ReconcileStatusService) private readonly status: ReconcileStatusService) {}

  @RpcHandler(RPCS.accounts.console.reconcileLast)
  last(@Payload() payload: unknown): Promise<ConsoleReconcileStatus> {
    const { offset, limit } = parseOrThrow(ConsoleReconcileRequest, payload ?? {});
    return this.status.last(offset, limit);
  }

  @RpcHandler(RPCS.accounts.console.reconcileRun)
  run(@Payload() payload: unknown): Promise<ConsoleReconcileStatus> {
    const { offset, limit } = parseOrThrow(ConsoleReconcileRequest, payload ?? {});
    return this.status.run(offset, limit);
  }
}
