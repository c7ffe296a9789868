import { GatewayError, type BatchCreatePayload, type BatchList, type BatchListQuery, type BatchObject, type BatchStatus } from '@gateway/contracts';
import type { QueueFactory } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { FilesRepository } from '../files/files.repository';
import { batchObjectOf, newBatchId } from './batch-record';
import { nextBatchStatus } from './batch-state';
import { BATCH_QUEUE, BATCH_QUEUES } from './batch-tokens';
import { BatchesRepository } from './batches.repository';

const WINDOW_MS = 24 * 3600 * 1000;
const DEFAULT_LIST_LIMIT = 20;

/** Batches per tenant: creation (recorded, then validated and run by a worker), reads and cancel. */
@Injectable()
export class BatchesService {
  constructor(
    private readonly batches: BatchesRepository,
    private readonly files: FilesRepository,
    @Inject(BATCH_QUEUES) private readonly queues: QueueFactory,
  ) {}

  async create(payload: BatchCreatePayload): Promise<BatchObject> {
    const { body } = payload;
    const input = await this.files.find(payload.tenantId, body.input_file_id);
    if (!input) throw GatewayError.notFound(`No such File object: ${body.input_file_id}`, 'input_file_id');
    if (input.purpose !== 'batch')
      throw GatewayError.invalid(`input_file_id ${body.input_file_id} has purpose '${input.purpose}', not 'batch'.`, 'input_file_id');
    const row = await this.batches.create({
      id: newBatchId(),
      tenantId: payload.tenantId,
      keyId: payload.keyId,
      keyKind: payload.keyKind,
      endpoint: body.endpoint,
      inputFileId: body.input_file_id,
      completionWindow: body.completion_window,
      metadata: body.metadata ?? null,
      expiresAt: new Date(Date.now() + WINDOW_MS),
    });
    await this.queues.queue(BATCH_QUEUE).add('advance', { batchId: row.id }, { jobId: row.id });
    return batchObjectOf(row);
  }

  async list(tenantId: string, query: BatchListQuery): Promise<BatchList> {
    const limit = query.limit ?? DEFAULT_LIST_LIMIT;
    const rows = await this.batches.list(tenantId, limit, query.after);
    const data = rows.slice(0, limit).map(batchObjectOf);
    return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > limit };
  }

  async get(tenantId: string, batchId: string): Promise<BatchObject> {
    return batchObjectOf(await this.found(tenantId, batchId));
  }

  /**
   * Stops new lines: the batch moves to `cancelling`, and the worker running it stops dispatching, lets the
   * lines in flight finish, writes the files of what finished and moves it to `cancelled`. A native batch's
   * worker forwards the cancel to the upstream and ends the batch once the upstream has.
   */
  async cancel(tenantId: string, batchId: string): Promise<BatchObject> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await this.found(tenantId, batchId);
      const status = row.status as BatchStatus;
      if (status === 'cancelling' || status === 'cancelled') return batchObjectOf(row);
      if (!nextBatchStatus(status, 'cancel')) throw GatewayError.invalid(`Cannot cancel a batch with status '${status}'.`, 'batch_id');
      if (await this.batches.move(batchId, status, 'cancelling')) {
        // A native batch's job may be waiting for its next poll: it runs now and forwards the cancel upstream.
        await this.queues
          .queue(BATCH_QUEUE)
          .getJob(batchId)
          .then((job) => job?.promote())
          .catch(() => undefined);
        return batchObjectOf(await this.found(tenantId, batchId));
      }
    }
    throw GatewayError.invalid('The batch changed state while being cancelled; try again.', 'batch_id');
  }

  private async found(tenantId: string, batchId: string) {
    const row = await this.batches.find(tenantId, batchId);
    if (!row) throw GatewayError.notFound(`No such Batch object: ${batchId}`, 'batch_id');
    return row;
  }
}
