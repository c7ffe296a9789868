import { taskPageArgs, type TaskPageRead } from '@gateway/platform';
import { pgJson, PrismaClient, type Prisma } from '@gateway/db';
import type { BatchError, BatchStatus } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { STAMP_OF } from './batch-state';
import type { ValidLine } from './batch-input.validator';

export type BatchRow = Prisma.BatchGetPayload<object>;

export interface NewBatch {
  id: string;
  tenantId: string;
  keyId: string;
  keyKind: string;
  endpoint: string;
  inputFileId: string;
  completionWindow: string;
  metadata: Record<string, string> | null;
  expiresAt: Date;
}

export interface PendingLine {
  line: number;
  customId: string;
  body: Record<string, unknown>;
}

export interface LineOutcome {
  line: number;
  status: 'completed' | 'failed';
  result: unknown;
}

/** The upstream's side of a native batch, as far as it is known. */
export type NativeUpstreamState = Partial<
  Pick<
    BatchRow,
    'upstreamInputFileId' | 'upstreamBatchId' | 'upstreamStatus' | 'upstreamCompleted' | 'upstreamFailed' | 'upstreamOutputFileId' | 'upstreamErrorFileId'
  >
>;

export interface FinishedLine {
  line: number;
  customId: string;
  status: string;
  result: unknown;
}

/** The only reader and writer of batches and batch_lines. Reads name the tenant; moves between states are guarded updates. */
@Injectable()
export class BatchesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(batch: NewBatch): Promise<BatchRow> {
    const { metadata, ...rest } = batch;
    return this.prisma.batch.create({ data: { ...rest, status: 'validating', metadata: metadata ? (pgJson(metadata) as Prisma.InputJsonObject) : undefined } });
  }

  async find(tenantId: string, id: string): Promise<BatchRow | null> {
    return this.prisma.batch.findFirst({ where: { id, tenantId } });
  }

  async byId(id: string): Promise<BatchRow | null> {
    return this.prisma.batch.findUnique({ where: { id } });
  }

  /** Newest first; one more row than asked for, so the caller can tell whether there are more. */
  async list(tenantId: string, limit: number, after?: string): Promise<BatchRow[]> {
    const where: Prisma.BatchWhereInput = { tenantId };
    if (after) {
      const cursor = await this.find(tenantId, after);
      if (!cursor) return [];
      where.OR = [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }];
    }
    return this.prisma.batch.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit + 1 });
  }

  /** The tenant console's page: newest first, in the asked statuses, after the last of the previous page. */
  pageForTenant(query: TaskPageRead): Promise<BatchRow[]> {
    return this.prisma.batch.findMany(taskPageArgs(query, 'status'));
  }

  /**
   * Moves the batch from `from` to `to`, stamping the time `to` is entered, only if it is still in `from`:
   * of two workers (or a worker and a cancel) racing, exactly one wins. True when this call moved it.
   */
  async move(id: string, from: BatchStatus, to: BatchStatus, extra: Prisma.BatchUpdateManyMutationInput = {}): Promise<boolean> {
    const stamp = STAMP_OF[to];
    const data: Prisma.BatchUpdateManyMutationInput = { ...extra, status: to, ...(stamp ? { [stamp]: new Date() } : {}) };
    const { count } = await this.prisma.batch.updateMany({ where: { id, status: from }, data });
    return count === 1;
  }

  async fail(id: string, errors: BatchError[]): Promise<boolean> {
    await this.prisma.batchLine.deleteMany({ where: { batchId: id } });
    return this.move(id, 'validating', 'failed', { errors: { object: 'list', data: errors } as unknown as Prisma.InputJsonValue });
  }

  /** Lines a re-run of validation already wrote are skipped, not doubled. */
  async addLines(batchId: string, lines: ValidLine[]): Promise<void> {
    await this.prisma.batchLine.createMany({
      data: lines.map((l) => ({ batchId, line: l.line, customId: l.customId, body: pgJson(l.body) as Prisma.InputJsonValue })),
      skipDuplicates: true,
    });
  }

  async setTotal(id: string, total: number): Promise<void> {
    await this.prisma.batch.update({ where: { id }, data: { total } });
  }

  /** Pending lines after `afterLine`, in order. */
  async pendingLines(batchId: string, afterLine: number, take: number): Promise<PendingLine[]> {
    const rows = await this.prisma.batchLine.findMany({
      where: { batchId, status: 'pending', line: { gt: afterLine } },
      orderBy: { line: 'asc' },
      take,
      select: { line: true, customId: true, body: true },
    });
    return rows.map((r) => ({ line: r.line, customId: r.customId, body: r.body as Record<string, unknown> }));
  }

  async countPending(batchId: string): Promise<number> {
    return this.prisma.batchLine.count({ where: { batchId, status: 'pending' } });
  }

  /**
   * Records the outcomes of finished lines once: only pending lines move, and the batch's counters move
   * with them in the same statement, so a line run twice (a worker killed after the call, before this)
   * is counted once. Returns how many lines moved.
   */
  async finishLines(batchId: string, outcomes: LineOutcome[]): Promise<number> {
    if (outcomes.length === 0) return 0;
    const lines = outcomes.map((o) => o.line);
    const statuses = outcomes.map((o) => o.status);
    const results = outcomes.map((o) => JSON.stringify(pgJson(o.result)));
    const rows = await this.prisma.$queryRaw<{ moved: number }[]>`
      WITH input AS (
        SELECT * FROM unnest(${lines}::int[], ${statuses}::text[], ${results}::text[]) AS t(line, status, result)
      ), done AS (
        UPDATE batch_lines bl SET status = i.status, result = i.result::jsonb, finished_at = now()
        FROM input i
        WHERE bl.batch_id = ${batchId} AND bl.line = i.line AND bl.status = 'pending'
        RETURNING bl.status
      ), counted AS (
        UPDATE batches SET completed = completed + (SELECT count(*) FROM done WHERE status = 'completed')::int,
                           failed = failed + (SELECT count(*) FROM done WHERE status = 'failed')::int
        WHERE id = ${batchId}
      )
      SELECT count(*)::int AS moved FROM done`;
    return rows[0]?.moved ?? 0;
  }

  /** Lines of one outcome in order, a page at a time. */
  async linesWithStatus(batchId: string, status: 'completed' | 'failed' | 'pending', afterLine: number, take: number): Promise<FinishedLine[]> {
    return this.prisma.batchLine.findMany({
      where: { batchId, status, line: { gt: afterLine } },
      orderBy: { line: 'asc' },
      take,
      select: { line: true, customId: true, status: true, result: true },
    });
  }

  /** Marks the batch native: its lines are forwarded whole to the upstream of `channelId`. */
  async setNative(id: string, modelId: string, channelId: string): Promise<void> {
    await this.prisma.batch.update({ where: { id }, data: { mode: 'native', nativeModelId: modelId, nativeChannelId: channelId } });
  }

  /** Back to running line by line (a line the upstream's batch API could not be asked for as it is). */
  async setLineByLine(id: string): Promise<void> {
    await this.prisma.batch.update({ where: { id }, data: { mode: 'lines', nativeModelId: null, nativeChannelId: null } });
  }

  /** Records what the upstream said of a native batch: its ids, status and counts. */
  async setUpstream(id: string, data: NativeUpstreamState): Promise<void> {
    await this.prisma.batch.update({ where: { id }, data });
  }

  /** The line numbers of the still pending lines among `customIds`, by custom_id. */
  async pendingByCustomIds(batchId: string, customIds: string[]): Promise<Map<string, number>> {
    const rows = await this.prisma.batchLine.findMany({
      where: { batchId, status: 'pending', customId: { in: customIds } },
      select: { line: true, customId: true },
    });
    return new Map(rows.map((r) => [r.customId, r.line]));
  }

  async status(id: string): Promise<BatchStatus | null> {
    const row = await this.prisma.batch.findUnique({ where: { id }, select: { status: true } });
    return (row?.status as BatchStatus | undefined) ?? null;
  }
}
