import { CONSOLE_OPERATOR_SUBJECTS, ConsoleReconcileRequest, parseOrThrow, type ConsoleReconcileStatus } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ReconcileStatusService } from './reconcile-status.service';

/** The operator console's reconciliation page: the last run over every tenant, and a new one. */
@Controller()
export class ReconcileStatusHandler {
  constructor(@Inject(ReconcileStatusService) private readonly status: ReconcileStatusService) {}

  @MessagePattern(CONSOLE_OPERATOR_SUBJECTS.reconcileLast)
  last(@Payload() payload: unknown): Promise<ConsoleReconcileStatus> {
    const { offset, limit } = parseOrThrow(ConsoleReconcileRequest, payload ?? {});
    return this.status.last(offset, limit);
  }

  @MessagePattern(CONSOLE_OPERATOR_SUBJECTS.reconcileRun)
  run(@Payload() payload: unknown): Promise<ConsoleReconcileStatus> {
    const { offset, limit } = parseOrThrow(ConsoleReconcileRequest, payload ?? {});
    return this.status.run(offset, limit);
  }
}
