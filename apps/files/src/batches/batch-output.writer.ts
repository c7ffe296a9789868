import { FILE_KEY_PREFIX } from '@gateway/contracts';
import { objectKey, type ObjectStore } from '@gateway/storage';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { FilesRepository } from '../files/files.repository';
import { lineResultId, type BatchLineResult } from './batch-line.runner';
import type { BatchesRepository, BatchRow, FinishedLine } from './batches.repository';

const PAGE = 500;

/** The id of a batch's output or error file: derived from the batch, so writing it twice writes the same file. */
function outputFileId(batchId: string, kind: 'output' | 'error'): string {
  return `file-${createHash('sha256').update(`${batchId}:${kind}`).digest('hex').slice(0, 24)}`;
}

/**
 * Writes a batch's output file (completed lines) and error file (failed lines, and on cancel or expiry
 * the lines never run) as JSONL, streamed page by page from the recorded lines into object storage.
 * Idempotent: the files have ids derived from the batch, and their records are created once.
 */
export class BatchOutputWriter {
  constructor(
    private readonly batches: BatchesRepository,
    private readonly files: FilesRepository,
    private readonly store: ObjectStore,
  ) {}

  async write(batch: BatchRow, unrun: { code: string; message: string } | null): Promise<{ outputFileId: string | null; errorFileId: string | null }> {
    const output = await this.writeFile(batch, 'output', this.recorded(batch.id, 'completed'));
    const failed = this.recorded(batch.id, 'failed');
    const errors = unrun ? concat(failed, this.unrun(batch.id, unrun)) : failed;
    const error = await this.writeFile(batch, 'error', errors);
    return { outputFileId: output, errorFileId: error };
  }

  private async *recorded(batchId: string, status: 'completed' | 'failed'): AsyncGenerator<string> {
    let after = 0;
    for (;;) {
      const page: FinishedLine[] = await this.batches.linesWithStatus(batchId, status, after, PAGE);
      for (const line of page) yield `${JSON.stringify(line.result)}\n`;
      if (page.length < PAGE) return;
      after = page.at(-1)!.line;
    }
  }

  private async *unrun(batchId: string, error: { code: string; message: string }): AsyncGenerator<string> {
    let after = 0;
    for (;;) {
      const page = await this.batches.linesWithStatus(batchId, 'pending', after, PAGE);
      for (const line of page) {
        const result: BatchLineResult = { id: lineResultId(batchId, line.line), custom_id: line.customId, response: null, error };
        yield `${JSON.stringify(result)}\n`;
      }
      if (page.length < PAGE) return;
      after = page.at(-1)!.line;
    }
  }

  /** Stores the lines as one file and records it; null when there are no lines. */
  private async writeFile(batch: BatchRow, kind: 'output' | 'error', lines: AsyncGenerator<string>): Promise<string | null> {
    const first = await lines.next();
    if (first.done) return null;
    const id = outputFileId(batch.id, kind);
    const key = objectKey(FILE_KEY_PREFIX, batch.tenantId, id);
    const body = Readable.from(concat(once(first.value), lines));
    const stored = await this.store.put(key, body, 'application/jsonl');
    await this.files.upsert({
      id,
      tenantId: batch.tenantId,
      filename: `${batch.id}_${kind}.jsonl`,
      purpose: 'batch_output',
      bytes: BigInt(stored.size),
      contentType: 'application/jsonl',
      objectKey: key,
    });
    return id;
  }
}

async function* once(value: string): AsyncGenerator<string> {
  yield value;
}

async function* concat(...parts: AsyncGenerator<string>[]): AsyncGenerator<string> {
  for (const part of parts) yield* part;
}
