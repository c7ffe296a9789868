import { formatMicros, type LedgerPage, type LedgerRequest, type LedgerViewKind } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { TenantsService } from '../tenants/tenants.service';
import { MoneyRepository } from './money.repository';

/** The stored kinds behind each kind an operator names (a hold is stored as the reservation it is). */
const STORED_KINDS: Record<LedgerViewKind, string[]> = {
  topup: ['topup'],
  hold: ['reserve'],
  settle: ['settle'],
  release: ['release'],
  refund: ['refund'],
  overrun: ['overrun'],
  plan_grant: ['plan_grant'],
};

/** A tenant's ledger, oldest first, each entry with the usage record it belongs to and the balance after it. */
@Injectable()
export class LedgerViewService {
  constructor(
    @Inject(MoneyRepository) private readonly money: MoneyRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
  ) {}

  async page(request: LedgerRequest): Promise<LedgerPage> {
    const tenant = await this.tenants.requireBySlug(request.tenant);
    const rows = await this.money.ledgerPage(tenant.id, {
      cursor: request.cursor,
      since: request.since ? new Date(request.since) : undefined,
      kinds: request.kind ? STORED_KINDS[request.kind] : undefined,
      limit: request.limit,
    });
    return {
      tenant: tenant.slug,
      rows: rows.map((row) => ({
        id: row.id,
        at: row.created_at.toISOString(),
        kind: row.kind,
        pool: row.pool,
        amountMicros: row.amount_micros,
        amount: formatMicros(BigInt(row.amount_micros)),
        requestId: row.request_id,
        usageKind: row.usage_kind,
        subjectId: row.subject_id,
        note: row.note,
        balanceMicros: row.balance_micros,
        balance: row.balance_micros === null ? null : formatMicros(BigInt(row.balance_micros)),
      })),
      nextCursor: rows.length === request.limit ? rows[rows.length - 1]!.id : null,
    };
  }
}
