import type { BatchesRepository, LineOutcome } from './batches.repository';

const FLUSH_LINES = 16;
const FLUSH_MS = 10;

/**
 * Gathers the outcomes of a batch's finished lines and writes them in groups (every FLUSH_LINES lines or
 * FLUSH_MS), one statement per group instead of one per line. An outcome not yet written when the worker
 * dies is simply run again on resume: the line is still pending, and its request id is the same.
 */
export class BatchLineRecorder {
  private waiting: LineOutcome[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private failure: Error | null = null;

  constructor(
    private readonly batches: BatchesRepository,
    private readonly batchId: string,
  ) {}

  record(outcome: LineOutcome): void {
    this.waiting.push(outcome);
    if (this.waiting.length >= FLUSH_LINES) this.flushSoon(0);
    else this.flushSoon(FLUSH_MS);
  }

  private flushSoon(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
  }

  /** Writes what is waiting; resolves once every outcome recorded so far is in Postgres, or throws what failed. */
  async flush(): Promise<void> {
    const group = this.waiting;
    this.waiting = [];
    this.writing = this.writing.then(async () => {
      if (group.length === 0) return;
      try {
        await this.batches.finishLines(this.batchId, group);
      } catch (error) {
        this.failure ??= error as Error;
      }
    });
    await this.writing;
    if (this.failure) throw this.failure;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}
