import { leaseDrawEvents, WalletStore } from '@gateway/billing';
import type { LeaseClose, UsageBatch, UsageEvent } from '@gateway/contracts';
import { isRecordError } from '@gateway/db';
import { writeIsolatingFailures, type BatchRefusal, type IsolatedFailure } from '@gateway/platform';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AlertTrigger } from '../alerts/alert-trigger';
import { LedgerRepository } from '../ledger/ledger.repository';
import { countWritten } from './usage-metrics';
import { UsageRepository } from './usage.repository';

/**
 * Records what the chat service reports a request used: ends its billing hold (or draws the charge
 * from its lease, ledgering each draw, then closes the leases that ended with it) and writes its usage
 * row, in one round of Redis script calls and one INSERT a batch. Every step skips what it already did
 * (a hold ends once; the requestId key skips a duplicate row), so a batch may be recorded twice.
 */
@Injectable()
export class UsageService {
  constructor(
    @Inject(UsageRepository) private readonly repository: UsageRepository,
    @Inject(WalletStore) private readonly wallet: WalletStore,
    @Inject(LedgerRepository) private readonly ledger: LedgerRepository,
    @Optional() @Inject(AlertTrigger) private readonly alerts: AlertTrigger | null = null,
  ) {}

  /**
   * Records the batches, one per published message. When Postgres refuses a row, every other row is
   * still written; each batch holding refused events comes back as a refusal whose payload is those
   * events alone, as a batch of their own (replayable as it is).
   */
  async record(batches: UsageBatch[]): Promise<BatchRefusal[]> {
    const events: UsageEvent[] = [];
    const closes: LeaseClose[] = [];
    const carriers = new Map<UsageEvent, number>();
    for (const [index, batch] of batches.entries()) {
      for (const event of batch.events) carriers.set(event, index);
      events.push(...batch.events);
      closes.push(...batch.closes);
    }
    const draws = await this.wallet.applySettlements(events.flatMap((e) => (e.settlement ? [{ requestId: e.requestId, settlement: e.settlement }] : [])));
    // A lease's draws are ledgered here, with the usage rows, rather than through the wallet's event stream.
    const drawn = draws.flatMap(leaseDrawEvents);
    await this.ledger.append(drawn);
    this.alerts?.notice(drawn);
    await this.wallet.closeLeases(closes);
    const refused = await writeIsolatingFailures(events, (part) => this.repository.insertMany([...part], (ids) => countWritten(part, ids)), isRecordError);
    return refusals(refused, carriers);
  }
}

function refusals(refused: IsolatedFailure<UsageEvent>[], carriers: Map<UsageEvent, number>): BatchRefusal[] {
  const byBatch = new Map<number, IsolatedFailure<UsageEvent>[]>();
  for (const failure of refused) {
    const index = carriers.get(failure.item)!;
    byBatch.set(index, [...(byBatch.get(index) ?? []), failure]);
  }
  return [...byBatch].map(([index, failed]) => ({
    index,
    error: failed.map((f) => `${f.item.requestId}: ${f.error.message}`).join('; '),
    payload: JSON.stringify({ events: failed.map((f) => f.item), closes: [] }),
  }));
}
