import { RpcHandler } from '@gateway/platform';
import { LedgerRequest, parseOrThrow, ReconcileRequest, type LedgerPage, type ReconcileReport, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { LedgerViewService } from './ledger-view.service';
import { ReconcileService } from './reconcile.service';
import { ReconcileStatusService } from './reconcile-status.service';

@Controller()
export class MoneyHandler {
  constructor(
    @Inject(LedgerViewService) private readonly ledger: LedgerViewService,
    @Inject(ReconcileService) private readonly reconciler: ReconcileService,
    @Inject(ReconcileStatusService) private readonly status: ReconcileStatusService,
  ) {}

  @RpcHandler(RPCS.accounts.money.ledger)
  page(@Payload() payload: unknown): Promise<LedgerPage> {
    return this.ledger.page(parseOrThrow(LedgerRequest, payload));
  }

  @RpcHandler(RPCS.accounts.money.reconcile)
  async reconcile(@Payload() payload: unknown): Promise<ReconcileReport> {
    const request = parseOrThrow(ReconcileRequest, payload);
    const report = await this.reconciler.reconcile(request);
    // A run over every tenant is the one the operator console shows as the last.
    if (request.all) await this.status.keep(report);
    return report;
  }
}
