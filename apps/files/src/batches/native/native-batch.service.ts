import { capChatOutput, type BillingPlan } from '@gateway/billing';
import { GatewayError, type BatchEndpoint, type BatchError, type BatchStatus } from '@gateway/contracts';
import type { UpstreamBatchObject, UpstreamBatchOutputLine } from '@gateway/providers';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { FILES_ENV, type FilesEnv } from '../../config/files-env';
import { BATCH_ENDPOINT_ROUTES } from '../batch-endpoints';
import { BatchFinisher, type UnrunReason } from '../batch-finisher';
import { isTerminal } from '../batch-state';
import { NATIVE_BACKOFF } from '../batch-tokens';
import { BatchesRepository, type BatchRow } from '../batches.repository';
import { NativeBatchBilling } from './native-batch.billing';
import { NativeBatchCatalog, type NativeTarget } from './native-batch.catalog';
import { NativeBatchUpstream, UpstreamBusy } from './native-batch.upstream';
import { mapOutputLine, parseOutputLine } from './native-output.mapper';
import type { UpstreamBackoff } from './upstream-backoff';

const PAGE = 500;
/** Upstream output lines mapped and recorded at once. */
const OUTPUT_PAGE = 200;
const UPLOAD_CHUNK = 64 * 1024;
const RUNNING = new Set(['validating', 'in_progress', 'finalizing']);
/** How long past its window a forwarded batch waits for its upstream to report the end itself. */
const EXPIRY_GRACE_MS = 3600_000;

const UNRUN: Record<'completed' | 'cancelled' | 'expired' | 'failed', UnrunReason> = {
  completed: { code: 'batch_line_missing', message: "The upstream's batch output did not report this line." },
  cancelled: { code: 'batch_cancelled', message: 'This line was not run before the batch was cancelled.' },
  expired: { code: 'batch_expired', message: 'This line was not run before the batch expired.' },
  failed: { code: 'batch_failed', message: 'This line was not run: the batch failed.' },
};

/**
 * Native batches: the whole input forwarded to one upstream's own batch API instead of run line by line.
 * Forward: hold each line's maximum cost, stream the lines (each body capped and naming the upstream's
 * model) into an upload, create the upstream batch, record its ids. Poll: ask the upstream (forwarding a
 * cancel), back off per upstream when it refuses, and once it is done stream its output and error files
 * back, each line mapped to the batch's own (custom_id kept, the catalog model named, the upstream's
 * request id) and billed from the usage it reports. Every step may run again after a crash: lines are
 * recorded once (the guarded move out of `pending`), usage and charges once (by the line's request id).
 */
@Injectable()
export class NativeBatchService {
  private readonly logger = new Logger(NativeBatchService.name);

  constructor(
    private readonly batches: BatchesRepository,
    private readonly catalog: NativeBatchCatalog,
    private readonly upstream: NativeBatchUpstream,
    private readonly billing: NativeBatchBilling,
    private readonly finisher: BatchFinisher,
    @Inject(NATIVE_BACKOFF) private readonly backoff: UpstreamBackoff,
    @Inject(FILES_ENV) private readonly env: FilesEnv,
  ) {}

  /** Called once a batch is validated: marks it native when its lines can be forwarded whole. */
  async choose(batch: BatchRow, models: readonly string[]): Promise<void> {
    const target = await this.catalog.targetOf(batch.tenantId, batch.endpoint as BatchEndpoint, models);
    if (target) await this.batches.setNative(batch.id, target.model.id, target.channel.id);
  }

  /**
   * Moves a native batch on by one step; returns how long to wait before the next (a poll), or null when
   * there is nothing more to do here (the batch moved on, or went back to running line by line).
   */
  async advance(batch: BatchRow): Promise<number | null> {
    // The upstream expires its own batch with the same window; past it (and a grace for that), an upstream
    // that never answered or never took the batch does not keep it running for ever.
    const late = Date.now() - batch.expiresAt.getTime();
    if (late > (batch.upstreamBatchId ? EXPIRY_GRACE_MS : 0)) return this.expire(batch);
    const target = await this.catalog.target(batch.nativeModelId!, batch.nativeChannelId!);
    try {
      if (!batch.upstreamBatchId) {
        if (batch.status !== 'in_progress') return this.endUnforwarded(batch);
        return await this.forward(batch, target);
      }
      return await this.poll(batch, target);
    } catch (error) {
      if (!(error instanceof UpstreamBusy)) throw error;
      this.logger.warn(`${batch.id}: the upstream is busy (${error.message}); trying again later`);
      return this.backoff.refused(target.channel.id, error.retryAfterSeconds);
    }
  }

  /** The body the upstream is sent for a line: output capped as the live route caps it, the upstream's model name. */
  private upstreamBody(batch: BatchRow, target: NativeTarget, body: Record<string, unknown>): Record<string, unknown> {
    const copy = structuredClone(body);
    const { shape } = BATCH_ENDPOINT_ROUTES[batch.endpoint as BatchEndpoint];
    if (shape) capChatOutput(shape, copy, target.model.defaultMaxTokens);
    copy.model = target.channel.upstreamModel;
    return copy;
  }

  private async forward(batch: BatchRow, target: NativeTarget): Promise<number | null> {
    const plan = await this.billing.planOf(batch, target.model);
    const amounts: { line: number; amount: bigint }[] = [];
    try {
      for await (const line of this.pendingLines(batch.id)) {
        const body = this.upstreamBody(batch, target, line.body);
        if (plan) amounts.push({ line: line.line, amount: this.billing.maxCostOf(plan, target.model, body) });
      }
    } catch (error) {
      if (!(error instanceof GatewayError) || error.code !== 'invalid_request') throw error;
      // A line the live route would refuse (an output cap above the model's): run line by line, where it fails alone.
      await this.batches.setLineByLine(batch.id);
      return null;
    }
    if (plan) {
      try {
        await this.billing.hold(batch, plan, amounts);
      } catch (error) {
        if (!(error instanceof GatewayError) || (error.code !== 'insufficient_quota' && error.code !== 'budget_exceeded')) throw error;
        return this.refuse(
          batch,
          amounts.map((a) => a.line),
          error,
        );
      }
    }
    try {
      let inputFileId = batch.upstreamInputFileId;
      if (!inputFileId) {
        inputFileId = await this.upstream.upload(target.channel, `${batch.id}.jsonl`, Readable.from(this.inputLines(batch, target)));
        await this.batches.setUpstream(batch.id, { upstreamInputFileId: inputFileId });
      }
      const created = await this.upstream.create(target.channel, inputFileId, batch.endpoint, { gateway_batch_id: batch.id });
      await this.batches.setUpstream(batch.id, { upstreamBatchId: created.id, ...this.stateOf(created) });
      this.logger.log(`${batch.id} forwarded to ${target.channel.providerId} as ${created.id}`);
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      return this.refuse(
        batch,
        amounts.map((a) => a.line),
        error,
      );
    }
    return this.backoff.delay(target.channel.id);
  }

  /** The upstream (or billing) refused the batch before it ran: nothing is charged, the batch fails naming why. */
  private async refuse(batch: BatchRow, lines: number[], error: GatewayError): Promise<null> {
    await this.billing.release(batch, lines, 'native batch refused');
    const reason: BatchError = { code: error.code, message: `The batch could not be forwarded: ${error.message}`, param: error.param, line: null };
    await this.finisher.finish(batch, 'in_progress', 'failed', UNRUN.failed, [reason]);
    return null;
  }

  /** A batch cancelled before it was forwarded: its lines never ran. */
  private async endUnforwarded(batch: BatchRow): Promise<null> {
    if (batch.status !== 'cancelling') throw new Error(`${batch.id} is ${batch.status} but has no upstream batch`);
    await this.releasePending(batch, 'native batch not forwarded');
    await this.finisher.finish(batch, 'cancelling', 'cancelled', UNRUN.cancelled);
    return null;
  }

  private async poll(batch: BatchRow, target: NativeTarget): Promise<number | null> {
    let upstream = await this.upstream.retrieve(target.channel, batch.upstreamBatchId!);
    if (batch.status === 'cancelling' && RUNNING.has(upstream.status)) upstream = await this.upstream.cancel(target.channel, upstream.id);
    await this.backoff.answered(target.channel.id);
    await this.batches.setUpstream(batch.id, this.stateOf(upstream));
    if (!['completed', 'failed', 'expired', 'cancelled'].includes(upstream.status)) return this.backoff.delay(target.channel.id);
    for (const fileId of [upstream.output_file_id, upstream.error_file_id]) if (fileId) await this.ingest(batch, target, fileId);
    await this.conclude(batch.id, upstream);
    return null;
  }

  private stateOf(upstream: UpstreamBatchObject) {
    return {
      upstreamStatus: upstream.status,
      upstreamCompleted: upstream.request_counts?.completed ?? 0,
      upstreamFailed: upstream.request_counts?.failed ?? 0,
      upstreamOutputFileId: upstream.output_file_id ?? null,
      upstreamErrorFileId: upstream.error_file_id ?? null,
    };
  }

  /** Streams one upstream output or error file back, a page of lines at a time. */
  private async ingest(batch: BatchRow, target: NativeTarget, fileId: string): Promise<void> {
    const plan = await this.billing.planOf(batch, target.model);
    const body = await this.upstream.content(target.channel, fileId);
    let page: UpstreamBatchOutputLine[] = [];
    let pageNo = 0;
    let unreadable = 0;
    try {
      for await (const text of createInterface({ input: body, crlfDelay: Infinity })) {
        if (text.trim() === '') continue;
        const line = parseOutputLine(text);
        if (!line) {
          unreadable++;
          continue;
        }
        page.push(line);
        if (page.length >= OUTPUT_PAGE) {
          await this.recordPage(batch, target, plan, page, `${fileId}:${pageNo++}`);
          page = [];
        }
      }
      if (page.length > 0) await this.recordPage(batch, target, plan, page, `${fileId}:${pageNo}`);
    } finally {
      // A failure mid-file leaves the rest unread: the connection is let go, the next attempt reads from the start.
      body.destroy();
    }
    if (unreadable > 0) this.logger.warn(`${batch.id}: ${unreadable} lines of the upstream's file ${fileId} were not batch output lines`);
  }

  /**
   * Records one page of upstream lines: the usage of the lines that ran goes to the durable usage stream
   * first (settling each line's hold at what it used, or releasing it), then the lines move out of
   * `pending`. A crash between the two records nothing twice: the lines are still pending and run through
   * here again, and their usage events carry the same request ids.
   */
  private async recordPage(batch: BatchRow, target: NativeTarget, plan: BillingPlan | null, page: UpstreamBatchOutputLine[], key: string): Promise<void> {
    const pending = await this.batches.pendingByCustomIds(
      batch.id,
      page.map((l) => l.custom_id),
    );
    const mapped = page.flatMap((upstream) => {
      const line = pending.get(upstream.custom_id);
      return line === undefined ? [] : [{ line, ...mapOutputLine(batch.id, line, upstream, target.model.id) }];
    });
    if (mapped.length === 0) return;
    const ran = mapped.flatMap((m) => (m.status === null ? [] : [{ line: m.line, status: m.status, usage: m.usage }]));
    const route = BATCH_ENDPOINT_ROUTES[batch.endpoint as BatchEndpoint].route;
    await this.billing.record(this.billing.eventsOf(batch, target.model, plan, ran, route), `${batch.id}:${key}:${ran.length}`);
    await this.billing.release(
      batch,
      mapped.filter((m) => m.status === null).map((m) => m.line),
      'batch line not run upstream',
    );
    const served = (status: number | null) => status !== null && status >= 200 && status < 300;
    await this.batches.finishLines(
      batch.id,
      mapped.map((m) => ({ line: m.line, status: served(m.status) ? 'completed' : 'failed', result: m.result })),
    );
  }

  /** Ends the batch as the upstream ended its own; lines it never reported are released and listed as not run. */
  private async conclude(batchId: string, upstream: UpstreamBatchObject): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const batch = await this.batches.byId(batchId);
      if (!batch || isTerminal(batch.status as BatchStatus)) return;
      await this.releasePending(batch, `native batch ${upstream.status}`);
      const from = batch.status as BatchStatus;
      const errors: BatchError[] = (upstream.errors?.data ?? []).map((e) => ({
        code: e.code ?? 'upstream_error',
        message: e.message ?? 'The upstream failed the batch.',
        param: e.param ?? null,
        line: e.line ?? null,
      }));
      if (upstream.status === 'completed' && from !== 'cancelling') {
        if (from === 'in_progress' && !(await this.batches.move(batch.id, 'in_progress', 'finalizing'))) continue;
        if (await this.finisher.finish(batch, 'finalizing', 'completed', UNRUN.completed)) return;
        continue;
      }
      // A cancel the upstream did not get to in time still ends the batch as the client asked.
      const to = upstream.status === 'completed' ? 'cancelled' : (upstream.status as 'cancelled' | 'expired' | 'failed');
      if (await this.finisher.finish(batch, from, to, UNRUN[to], to === 'failed' ? errors : [])) return;
    }
    throw new Error(`${batchId} kept changing state while its upstream batch ${upstream.id} was being concluded`);
  }

  private async expire(batch: BatchRow): Promise<null> {
    await this.abandon(batch);
    await this.finisher.finish(batch, batch.status as BatchStatus, 'expired', UNRUN.expired);
    return null;
  }

  /**
   * Gives up on a native batch (its job failed for good): the upstream batch is asked to stop, and the
   * holds of lines not recorded go back. Lines already recorded stay billed and in the output.
   */
  async abandon(batch: BatchRow): Promise<void> {
    if (batch.mode !== 'native') return;
    if (batch.upstreamBatchId && batch.nativeModelId && batch.nativeChannelId) {
      try {
        const { channel } = await this.catalog.target(batch.nativeModelId, batch.nativeChannelId);
        await this.upstream.cancel(channel, batch.upstreamBatchId);
      } catch (error) {
        this.logger.warn(`${batch.id}: the upstream batch ${batch.upstreamBatchId} could not be cancelled: ${(error as Error).message}`);
      }
    }
    await this.releasePending(batch, 'native batch failed');
  }

  private async releasePending(batch: BatchRow, note: string): Promise<void> {
    let after = 0;
    for (;;) {
      const page = await this.batches.linesWithStatus(batch.id, 'pending', after, PAGE);
      await this.billing.release(
        batch,
        page.map((l) => l.line),
        note,
      );
      if (page.length < PAGE) return;
      after = page.at(-1)!.line;
    }
  }

  private async *pendingLines(batchId: string) {
    let after = 0;
    for (;;) {
      const page = await this.batches.pendingLines(batchId, after, PAGE);
      yield* page;
      if (page.length < PAGE) return;
      after = page.at(-1)!.line;
    }
  }

  /** The upstream's input file, one JSONL line per pending line, read from Postgres a page at a time and sent in chunks of about UPLOAD_CHUNK bytes. */
  private async *inputLines(batch: BatchRow, target: NativeTarget): AsyncGenerator<Buffer> {
    let chunk = '';
    for await (const line of this.pendingLines(batch.id)) {
      const body = this.upstreamBody(batch, target, line.body);
      chunk += `${JSON.stringify({ custom_id: line.customId, method: 'POST', url: batch.endpoint, body })}\n`;
      if (chunk.length >= UPLOAD_CHUNK) {
        yield Buffer.from(chunk);
        chunk = '';
      }
    }
    if (chunk.length > 0) yield Buffer.from(chunk);
  }
}
