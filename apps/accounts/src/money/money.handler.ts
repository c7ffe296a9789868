import { LedgerRequest, MONEY_SUBJECTS, parseOrThrow, ReconcileRequest, type LedgerPage, type ReconcileReport } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { LedgerViewService } from './ledger-view.service';
import { ReconcileService } from './reconcile.service';

@Controller()
export class MoneyHandler {
  constructor(
    @Inject(LedgerViewService) private readonly ledger: LedgerViewService,
    @Inject(ReconcileService) private readonly reconciler: ReconcileService,
  ) {}

  @MessagePattern(MONEY_SUBJECTS.ledger)
  page(@Payload() payload: unknown): Promise<LedgerPage> {
    return this.ledger.page(parseOrThrow(LedgerRequest, payload));
  }

  @MessagePattern(MONEY_SUBJECTS.reconcile)
  reconcile(@Payload() payload: unknown): Promise<ReconcileReport> {
    return this.reconciler.reconcile(parseOrThrow(ReconcileRequest, payload));
  }
}
