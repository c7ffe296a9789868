import { BATCH_STATUSES } from '@gateway/contracts';
import { isTerminal, nextBatchStatus, type BatchEvent } from './batch-state';

describe('nextBatchStatus', () => {
  it.each<[string, BatchEvent, string]>([
    ['validating', 'validated', 'in_progress'],
    ['validating', 'invalid', 'failed'],
    ['validating', 'cancel', 'cancelling'],
    ['in_progress', 'lines_done', 'finalizing'],
    ['in_progress', 'cancel', 'cancelling'],
    ['in_progress', 'expire', 'expired'],
    ['finalizing', 'outputs_written', 'completed'],
    ['cancelling', 'outputs_written', 'cancelled'],
  ])('%s --%s--> %s', (from, event, to) => {
    expect(nextBatchStatus(from as never, event)).toBe(to);
  });

  it('moves no terminal state', () => {
    const events: BatchEvent[] = ['validated', 'invalid', 'lines_done', 'outputs_written', 'cancel', 'expire'];
    for (const status of BATCH_STATUSES.filter(isTerminal)) for (const event of events) expect(nextBatchStatus(status, event)).toBeNull();
  });

  it('cannot cancel a batch that is already finalizing, nor finish one that is cancelling twice over', () => {
    expect(nextBatchStatus('finalizing', 'cancel')).toBeNull();
    expect(nextBatchStatus('cancelling', 'cancel')).toBeNull();
    expect(nextBatchStatus('cancelling', 'lines_done')).toBeNull();
  });
});
