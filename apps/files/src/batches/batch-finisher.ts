import type { BatchError, BatchStatus } from '@gateway/contracts';
import type { Prisma } from '@gateway/db';
import { OBJECT_STORE } from '@gateway/platform/infra';
import type { ObjectStore } from '@gateway/storage';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { FilesRepository } from '../files/files.repository';
import { BatchOutputWriter } from './batch-output.writer';
import { BatchesRepository, type BatchRow } from './batches.repository';

/** What a line never run is told in the error file, by why the batch ended. */
export interface UnrunReason {
  code: string;
  message: string;
}

/** Ends a batch, whichever way it runs: writes the output files of the lines recorded, then makes the terminal move. */
@Injectable()
export class BatchFinisher {
  private readonly logger = new Logger(BatchFinisher.name);
  private readonly writer: BatchOutputWriter;

  constructor(
    private readonly batches: BatchesRepository,
    files: FilesRepository,
    @Inject(OBJECT_STORE) store: ObjectStore,
  ) {
    this.writer = new BatchOutputWriter(batches, files, store);
  }

  /** True when this call made the move; false when the batch had left `from` (another worker or a cancel moved it). */
  async finish(batch: BatchRow, from: BatchStatus, to: BatchStatus, unrun: UnrunReason | null, errors: BatchError[] = []): Promise<boolean> {
    const files = await this.writer.write(batch, unrun);
    const extra: Prisma.BatchUpdateManyMutationInput = { ...files };
    if (errors.length > 0) extra.errors = { object: 'list', data: errors } as unknown as Prisma.InputJsonValue;
    const moved = await this.batches.move(batch.id, from, to, extra);
    if (moved) {
      const counts = await this.batches.byId(batch.id);
      this.logger.log(`${batch.id} ${to}: ${counts?.completed ?? '?'} completed, ${counts?.failed ?? '?'} failed`);
    }
    return moved;
  }
}
