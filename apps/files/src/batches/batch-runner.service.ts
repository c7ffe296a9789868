import { GatewayError, type BatchEndpoint, type BatchError, type BatchStatus } from '@gateway/contracts';
import { OBJECT_STORE } from '@gateway/platform/infra';
import type { ObjectStore } from '@gateway/storage';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { FILES_ENV, type FilesEnv } from '../config/files-env';
import { FilesRepository } from '../files/files.repository';
import { validateBatchInput } from './batch-input.validator';
import { BatchLineRecorder } from './batch-line.recorder';
import { BatchLineRunner } from './batch-line.runner';
import { BatchFinisher } from './batch-finisher';
import { FundsGate } from './funds-gate';
import { isTerminal } from './batch-state';
import { BatchesRepository, type BatchRow, type PendingLine } from './batches.repository';
import { BATCH_LINE_RUNNER, TENANT_SLOTS } from './batch-tokens';
import { NativeBatchService } from './native/native-batch.service';
import type { TenantSlots } from './tenant-slots';

const PAGE = 200;
const STATUS_POLL_MS = 500;

/** A failure that is not the line's own (NATS, storage, Postgres): the line stays pending and the job is retried. */
class InfrastructureError extends Error {}

/**
 * Moves one batch through its states, doing what each one asks: validate the input file, run the pending
 * lines (or, for a native batch, forward it and poll its upstream), write the output files. Every step
 * may run again after a crash: lines are recorded once (by the guarded move out of `pending`), files have
 * ids derived from the batch, and every state change is a compare-and-swap, so a resumed job continues
 * where the killed one stopped.
 */
@Injectable()
export class BatchRunnerService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(BatchRunnerService.name);
  /** Aborted when the process shuts down: running batches stop dispatching and hand their jobs back. */
  private readonly shutdown = new AbortController();
  /** Lines refused for funds wait here for the tenant's other lines. */
  private readonly funds = new FundsGate();

  constructor(
    private readonly batches: BatchesRepository,
    private readonly files: FilesRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(FILES_ENV) private readonly env: FilesEnv,
    @Inject(BATCH_LINE_RUNNER) private readonly lines: BatchLineRunner,
    @Inject(TENANT_SLOTS) private readonly slots: TenantSlots,
    private readonly native: NativeBatchService,
    private readonly finisher: BatchFinisher,
  ) {}

  beforeApplicationShutdown(): void {
    this.shutdown.abort();
  }

  /** Moves the batch as far as it can go now; returns how long to wait before looking again (a native batch's next poll), or null when it is done. */
  async advance(batchId: string): Promise<number | null> {
    for (;;) {
      const batch = await this.batches.byId(batchId);
      if (!batch || isTerminal(batch.status as BatchStatus)) return null;
      if (batch.mode === 'native' && batch.status !== 'validating') {
        const wait = await this.native.advance(batch);
        if (wait !== null) return wait;
        continue;
      }
      await this.step(batch);
    }
  }

  /**
   * The batch's job failed all its attempts: rather than stay in progress forever, the batch fails with
   * an error saying what went wrong, never where: a gateway error's own message, or for anything else
   * (a database or programming error) a fixed one; the full text goes to the log under the batch's id.
   * Lines already run stay billed and in the output; the rest are listed as not run (a native batch's
   * upstream is asked to stop and their holds go back).
   */
  async giveUp(batchId: string, cause: unknown): Promise<void> {
    const error: BatchError = {
      code: 'batch_processing_failed',
      message: `Processing this batch failed repeatedly: ${safeReasonOf(cause, batchId)}`.slice(0, 1000),
      param: null,
      line: null,
    };
    const reason = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
    for (let attempt = 0; attempt < 3; attempt++) {
      const batch = await this.batches.byId(batchId);
      if (!batch || isTerminal(batch.status as BatchStatus)) return;
      await this.native.abandon(batch);
      const status = batch.status as BatchStatus;
      const moved =
        status === 'validating'
          ? await this.batches.fail(batch.id, [error])
          : await this.finisher.finish(batch, status, 'failed', { code: 'batch_failed', message: 'This line was not run: the batch failed.' }, [error]);
      if (moved) {
        this.logger.warn(`batch ${batchId} failed: ${reason}`);
        return;
      }
    }
  }

  private async step(batch: BatchRow): Promise<void> {
    switch (batch.status as BatchStatus) {
      case 'validating':
        return this.validate(batch);
      case 'in_progress':
        if (batch.expiresAt.getTime() <= Date.now())
          return this.finish(batch, 'in_progress', 'expired', { code: 'batch_expired', message: 'This line was not run before the batch expired.' });
        await this.runLines(batch);
        if ((await this.batches.countPending(batch.id)) === 0) await this.batches.move(batch.id, 'in_progress', 'finalizing');
        return;
      case 'finalizing':
        return this.finish(batch, 'finalizing', 'completed', null);
      case 'cancelling':
        return this.finish(batch, 'cancelling', 'cancelled', { code: 'batch_cancelled', message: 'This line was not run before the batch was cancelled.' });
      default:
        return;
    }
  }

  private async validate(batch: BatchRow): Promise<void> {
    const file = await this.files.find(batch.tenantId, batch.inputFileId);
    if (!file) {
      await this.batches.fail(batch.id, [
        { code: 'invalid_file', message: `The input file ${batch.inputFileId} no longer exists.`, param: 'input_file_id', line: null },
      ]);
      return;
    }
    const input = await this.store.get(file.objectKey);
    const { errors, total, models } = await validateBatchInput(input, batch.endpoint as BatchEndpoint, (page) => this.batches.addLines(batch.id, page));
    if (errors.length > 0) {
      await this.batches.fail(batch.id, errors);
      return;
    }
    await this.native.choose(batch, models);
    await this.batches.setTotal(batch.id, total);
    await this.batches.move(batch.id, 'validating', 'in_progress');
  }

  /**
   * Runs the pending lines in order with at most BATCH_CONCURRENCY in flight, each holding one of the
   * tenant's BATCH_TENANT_CONCURRENCY slots. Stops dispatching when the batch leaves in_progress (a
   * cancel), expires, or this worker shuts down; lines in flight finish and are recorded. A failure that is
   * not a line's own stops the run with an error, so the job is retried and the pending lines run again.
   */
  private async runLines(batch: BatchRow): Promise<void> {
    const stop = new AbortController();
    const onShutdown = () => stop.abort();
    this.shutdown.signal.addEventListener('abort', onShutdown);
    const watcher = setInterval(() => {
      if (batch.expiresAt.getTime() <= Date.now()) stop.abort();
      void this.batches.status(batch.id).then(
        (status) => status !== 'in_progress' && stop.abort(),
        () => undefined,
      );
    }, STATUS_POLL_MS);
    const recorder = new BatchLineRecorder(this.batches, batch.id);
    const inFlight = new Set<Promise<void>>();
    let broken: Error | undefined;
    try {
      let after = 0;
      while (!stop.signal.aborted && !broken) {
        const page = await this.batches.pendingLines(batch.id, after, PAGE);
        if (page.length === 0) break;
        for (const line of page) {
          while (inFlight.size >= this.env.BATCH_CONCURRENCY) await Promise.race(inFlight);
          if (stop.signal.aborted || broken) break;
          // The slot is taken inside the line's own task, so the loop never waits on Redis to dispatch the next.
          const running: Promise<void> = this.runLine(batch, line, stop.signal, recorder)
            .catch((error: Error) => void (broken ??= new InfrastructureError(`line ${line.line} of ${batch.id}: ${error.message}`)))
            .finally(() => inFlight.delete(running));
          inFlight.add(running);
          after = line.line;
        }
      }
      await Promise.all(inFlight);
      await recorder.close();
    } finally {
      clearInterval(watcher);
      this.shutdown.signal.removeEventListener('abort', onShutdown);
    }
    if (broken) throw broken;
    if (this.shutdown.signal.aborted) throw new InfrastructureError(`${batch.id} stopped by this worker's shutdown; another worker resumes it`);
  }

  /**
   * One line under one of the tenant's slots; a line whose slot wait ends with the run stays pending. A
   * line refused for the tenant's funds while other lines of the tenant may hold the balance waits for
   * them and runs again (see FundsGate), for up to BATCH_FUNDS_WAIT_MS; it fails at once when no other line
   * stands in front of it and none was served (the balance cannot cover it alone), or when the wait runs out.
   */
  private async runLine(batch: BatchRow, line: PendingLine, stop: AbortSignal, recorder: BatchLineRecorder): Promise<void> {
    const release = await this.slots.acquire(batch.tenantId, stop).catch(() => null);
    if (!release) return;
    try {
      const waitUntil = Date.now() + this.env.BATCH_FUNDS_WAIT_MS;
      for (let attempt = 1; ; attempt++) {
        const { ok, result, fundsRefused } = await this.funds.attempt(batch.tenantId, () => this.lines.run(batch, line, attempt));
        const left = waitUntil - Date.now();
        if (fundsRefused && left > 0 && !stop.aborted && this.funds.othersMayHold(batch.tenantId)) {
          await this.funds.wait(batch.tenantId, Math.min(FundsGate.waitMs(attempt), left));
          continue;
        }
        recorder.record({ line: line.line, status: ok ? 'completed' : 'failed', result });
        return;
      }
    } finally {
      void release();
    }
  }

  private async finish(batch: BatchRow, from: BatchStatus, to: BatchStatus, unrun: { code: string; message: string } | null): Promise<void> {
    await this.finisher.finish(batch, from, to, unrun);
  }
}

/** What a batch's error may say about why its processing failed: a gateway error's message, nothing internal. */
function safeReasonOf(cause: unknown, batchId: string): string {
  if (cause instanceof GatewayError) return cause.message;
  return `an internal error; the gateway's log has its details under batch ${batchId}.`;
}
