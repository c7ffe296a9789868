// The OpenAI batch API simulated in memory: uploaded files, and batches that run their lines through the
// live routes' builders in the background (a few at a time, each after its model's latency control, and
// stopping where a test's batch hold says), then write an output file and an error file in OpenAI's batch
// output format. Bounded: old files and batches are forgotten first, so a long benchmark cannot grow memory
// without limit.
import { randomBytes, randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { Holds } from '../../core/holds';
import { sleep, type SandboxControls } from '../../core/controls';
import type { SandboxStats } from '../../core/stats';
import { answerBatchLine, type BatchEndpoint } from './batch-line.builder';
import { renderOpenaiError } from './openai.errors';

export interface BoardFile {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: 'processed';
  content: Buffer;
}

export type BoardBatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

export interface BoardBatch {
  id: string;
  object: 'batch';
  endpoint: BatchEndpoint;
  errors: { object: 'list'; data: { code: string; message: string; param: string | null; line: number | null }[] } | null;
  input_file_id: string;
  completion_window: string;
  status: BoardBatchStatus;
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  metadata: Record<string, string> | null;
}

/** Lines of one batch answered at once. */
const LINE_CONCURRENCY = 8;
/** How long a new batch stays `validating`, and `finalizing`: long enough to be seen by a poll. */
const STEP_DELAY_MS = 100;
const MAX_FILES = 256;
const MAX_BATCHES = 1000;

const now = (): number => Math.floor(Date.now() / 1000);

export class BatchBoard {
  private readonly files = new Map<string, BoardFile>();
  private readonly batches = new Map<string, BoardBatch>();

  constructor(
    private readonly stats: SandboxStats,
    private readonly holds: Holds,
  ) {}

  addFile(filename: string, purpose: string, content: Buffer): BoardFile {
    const file: BoardFile = {
      id: `file-${randomBytes(12).toString('hex')}`,
      object: 'file',
      bytes: content.length,
      created_at: now(),
      filename,
      purpose,
      status: 'processed',
      content,
    };
    this.files.set(file.id, file);
    if (this.files.size > MAX_FILES) this.files.delete(this.files.keys().next().value!);
    return file;
  }

  file(id: string): BoardFile | undefined {
    return this.files.get(id);
  }

  batch(id: string): BoardBatch | undefined {
    return this.batches.get(id);
  }

  /** Records the batch and starts running it; `controlsOf` gives each line's latency and forced failure by its model. */
  create(
    input: BoardFile,
    endpoint: BatchEndpoint,
    metadata: Record<string, string> | null,
    controlsOf: (model: string | undefined) => SandboxControls,
  ): BoardBatch {
    const batch: BoardBatch = {
      id: `batch_${randomBytes(12).toString('hex')}`,
      object: 'batch',
      endpoint,
      errors: null,
      input_file_id: input.id,
      completion_window: '24h',
      status: 'validating',
      output_file_id: null,
      error_file_id: null,
      created_at: now(),
      in_progress_at: null,
      expires_at: now() + 24 * 3600,
      finalizing_at: null,
      completed_at: null,
      failed_at: null,
      expired_at: null,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
      metadata,
    };
    this.batches.set(batch.id, batch);
    if (this.batches.size > MAX_BATCHES) this.batches.delete(this.batches.keys().next().value!);
    void this.run(batch, input, controlsOf).catch((error: Error) => this.fail(batch, 'internal_error', error.message, null));
    return batch;
  }

  /** As OpenAI: a validating or running batch moves to `cancelling`, then `cancelled` once its lines in flight end. */
  cancel(batch: BoardBatch): BoardBatch {
    if (batch.status === 'validating' || batch.status === 'in_progress') {
      batch.status = 'cancelling';
      batch.cancelling_at = now();
      this.holds.wake();
    }
    return batch;
  }

  private fail(batch: BoardBatch, code: string, message: string, line: number | null): void {
    batch.errors = { object: 'list', data: [{ code, message, param: null, line }] };
    batch.status = 'failed';
    batch.failed_at = now();
  }

  private async run(batch: BoardBatch, input: BoardFile, controlsOf: (model: string | undefined) => SandboxControls): Promise<void> {
    await sleep(STEP_DELAY_MS);
    const lines: { customId: string; body: unknown; model: string | undefined }[] = [];
    let number = 0;
    for await (const text of createInterface({ input: Readable.from([input.content]), crlfDelay: Infinity })) {
      number++;
      if (text.trim() === '') continue;
      let parsed: { custom_id?: unknown; url?: unknown; body?: { model?: unknown } };
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch {
        return this.fail(batch, 'invalid_json_line', `Line ${number} is not valid JSON.`, number);
      }
      if (typeof parsed.custom_id !== 'string' || parsed.url !== batch.endpoint) {
        return this.fail(batch, 'invalid_request', `Line ${number} needs a custom_id and the url ${batch.endpoint}.`, number);
      }
      const model = typeof parsed.body?.model === 'string' ? parsed.body.model : undefined;
      lines.push({ customId: parsed.custom_id, body: parsed.body, model });
    }
    if ((batch.status as BoardBatchStatus) === 'cancelling') return this.close(batch, [], []);
    batch.status = 'in_progress';
    batch.in_progress_at = now();
    batch.request_counts.total = lines.length;
    const output: string[] = [];
    const errors: string[] = [];
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < lines.length && batch.status === 'in_progress') {
        if (!this.holds.tryStart(lines[next]!.customId)) {
          await this.holds.changed();
          continue;
        }
        const line = lines[next++]!;
        const controls = controlsOf(line.model);
        await sleep(controls.latencyMs);
        const answer =
          controls.fail === '500' || controls.fail === '429' || controls.fail === '503'
            ? {
                status: Number(controls.fail),
                body: renderOpenaiError(Number(controls.fail), `sandbox fail=${controls.fail}`, null, null) as Record<string, unknown>,
                tokens: { prompt: 0, completion: 0 },
              }
            : answerBatchLine(batch.endpoint, line.body);
        this.stats.record(`BATCH LINE ${batch.endpoint}`, answer.status === 200 ? 'ok' : `status_${answer.status}`);
        this.stats.addTokens(answer.tokens.prompt, answer.tokens.completion);
        const record = {
          id: `batch_req_${randomBytes(12).toString('hex')}`,
          custom_id: line.customId,
          response: { status_code: answer.status, request_id: `req_${randomUUID().replace(/-/g, '')}`, body: answer.body },
          error: null,
        };
        if (answer.status === 200) {
          output.push(JSON.stringify(record));
          batch.request_counts.completed++;
        } else {
          errors.push(JSON.stringify(record));
          batch.request_counts.failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: LINE_CONCURRENCY }, lane));
    if ((batch.status as BoardBatchStatus) === 'in_progress') {
      batch.status = 'finalizing';
      batch.finalizing_at = now();
      await sleep(STEP_DELAY_MS);
    }
    this.close(batch, output, errors);
  }

  /** Writes the output and error files of what ran, and ends the batch: cancelled if it was being cancelled. */
  private close(batch: BoardBatch, output: string[], errors: string[]): void {
    const write = (lines: string[], kind: string) =>
      lines.length === 0 ? null : this.addFile(`${batch.id}_${kind}.jsonl`, 'batch_output', Buffer.from(`${lines.join('\n')}\n`)).id;
    batch.output_file_id = write(output, 'output');
    batch.error_file_id = write(errors, 'error');
    if (batch.status === 'cancelling') {
      batch.status = 'cancelled';
      batch.cancelled_at = now();
    } else {
      batch.status = 'completed';
      batch.completed_at = now();
    }
  }
}
