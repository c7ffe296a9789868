import type { LedgerEvent } from '@gateway/billing';
import { isRecordError } from '@gateway/db';
import { writeIsolatingFailures, type BatchRefusal } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { LedgerRepository } from './ledger.repository';

/** Turns wallet events into ledger rows and balance moves. */
@Injectable()
export class LedgerService {
  constructor(@Inject(LedgerRepository) private readonly ledger: LedgerRepository) {}

  /**
   * Appends the events in one statement when it can (an event seen twice is skipped). When Postgres
   * refuses the batch because of an event, every other event is still appended, and each refused one
   * comes back as a refusal, its payload the event as the wallet wrote it (replayable as it is).
   */
  async append(events: LedgerEvent[]): Promise<BatchRefusal[]> {
    const positions = new Map(events.map((event, index) => [event, index]));
    const refused = await writeIsolatingFailures(events, (part) => this.ledger.append([...part]), isRecordError);
    return refused.map(({ item, error }) => ({ index: positions.get(item)!, error: `${item.rid}: ${error.message}`, payload: JSON.stringify(item) }));
  }
}
