import type { TaskHold } from '@gateway/billing';
import { pgJson, pgText, Prisma, PrismaClient, type SqlPool } from '@gateway/db';
import { SQL_POOL } from '@gateway/platform/infra';
import type { MediaJob } from '@gateway/providers';
import { Inject, Injectable } from '@nestjs/common';
import { ProducedUsage, StoredHold, StoredJob, StoredResults, type StoredResult } from './media-task.schema';
import { TERMINAL_STATES, type MediaTaskState } from './media-task.state';

export interface MediaTask {
  id: string;
  tenantId: string;
  keyId: string;
  family: 'oaic' | 'dsc' | 'nativemedia';
  route: string;
  queryKind: string;
  model: string;
  channelId: string | null;
  protocol: string;
  upstreamTaskId: string | null;
  state: MediaTaskState;
  progress: number;
  job: MediaJob;
  results: StoredResult[];
  usage: ProducedUsage | null;
  errorCode: string | null;
  errorMessage: string | null;
  hold: TaskHold | null;
  /** The x-request-id its client sent, for its usage record; null when none was sent. */
  clientRequestId: string | null;
  polls: number;
  deadlineAt: Date;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

export type NewMediaTask = Pick<
  MediaTask,
  | 'id'
  | 'tenantId'
  | 'keyId'
  | 'family'
  | 'route'
  | 'queryKind'
  | 'model'
  | 'channelId'
  | 'protocol'
  | 'upstreamTaskId'
  | 'state'
  | 'job'
  | 'hold'
  | 'clientRequestId'
  | 'deadlineAt'
>;

/** How a task ends: its terminal state and what goes with it. */
export interface TaskEnding {
  state: Extract<MediaTaskState, 'succeeded' | 'failed' | 'cancelled'>;
  results?: StoredResult[];
  usage?: ProducedUsage;
  errorCode?: string;
  errorMessage?: string;
}

type Row = Awaited<ReturnType<PrismaClient['mediaTask']['findUnique']>> & object;

function toTask(row: Row): MediaTask {
  return {
    ...row,
    family: row.family as MediaTask['family'],
    state: row.state as MediaTaskState,
    job: StoredJob.parse(row.request) as MediaJob,
    results: row.results === null ? [] : StoredResults.parse(row.results),
    usage: row.usage === null ? null : ProducedUsage.parse(row.usage),
    hold: StoredHold.parse(row.billingHold ?? null),
  };
}

const LIVE = { notIn: [...TERMINAL_STATES] };

/** The only place media tasks touch Postgres. A move to a terminal state is a compare-and-swap. */
@Injectable()
export class MediaTaskRepository {
  constructor(
    private readonly prisma: PrismaClient,
    @Inject(SQL_POOL) private readonly sql: SqlPool,
  ) {}

  /**
   * The row of a task just submitted, on the create path of every task: one named prepared statement on
   * the pool under Prisma. Times are the app's, written as UTC (the columns are timestamps without zone).
   * The client's request and the upstream's task id are written cleaned of what text and jsonb refuse
   * (NUL, lone surrogates): the upstream was sent the request as the client gave it.
   */
  async create(task: NewMediaTask): Promise<MediaTask> {
    const now = new Date();
    await this.sql.query({
      name: 'media_task_insert',
      text: `INSERT INTO media_tasks (id, tenant_id, key_id, family, route, query_kind, model, channel_id, protocol, upstream_task_id, state,
               request, billing_hold, deadline_at, created_at, updated_at, client_request_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15, $16)`,
      values: [
        task.id,
        task.tenantId,
        task.keyId,
        task.family,
        task.route,
        task.queryKind,
        task.model,
        task.channelId,
        task.protocol,
        pgText(task.upstreamTaskId),
        task.state,
        JSON.stringify(pgJson(task.job)),
        task.hold ? JSON.stringify(task.hold) : null,
        task.deadlineAt.toISOString(),
        now.toISOString(),
        pgText(task.clientRequestId),
      ],
    });
    return { ...task, progress: 0, results: [], usage: null, errorCode: null, errorMessage: null, polls: 0, createdAt: now, updatedAt: now, finishedAt: null };
  }

  async findById(id: string): Promise<MediaTask | null> {
    const row = await this.prisma.mediaTask.findUnique({ where: { id } });
    return row ? toTask(row) : null;
  }

  /** Those of `ids` that have ended. */
  async findEnded(ids: readonly string[]): Promise<MediaTask[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.mediaTask.findMany({ where: { id: { in: [...ids] }, state: { in: [...TERMINAL_STATES] } } });
    return rows.map(toTask);
  }

  /** A tenant's task, read on its own family's query kind; another tenant's or another route's is not there. */
  async findForTenant(id: string, tenantId: string, family: string, queryKind: string): Promise<MediaTask | null> {
    const row = await this.prisma.mediaTask.findFirst({ where: { id, tenantId, family, queryKind } });
    return row ? toTask(row) : null;
  }

  /** A tenant's tasks newest first, in `states` when given, after `after` (the last of the previous page); keyset, no offset. */
  async pageForTenant(tenantId: string, query: { states?: string[]; after: { at: Date; id: string } | null; limit: number }): Promise<MediaTask[]> {
    const after = query.after;
    const rows = await this.prisma.mediaTask.findMany({
      where: {
        tenantId,
        ...(query.states ? { state: { in: query.states } } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: query.limit,
    });
    return rows.map(toTask);
  }

  /** Records a live task's progress; a task that has ended meanwhile is left alone. */
  async recordProgress(id: string, state: MediaTaskState, progress: number | null): Promise<void> {
    await this.prisma.mediaTask.updateMany({
      where: { id, state: LIVE },
      data: { state, ...(progress === null ? {} : { progress }), polls: { increment: 1 } },
    });
  }

  /** A poll that learned nothing (upstream busy or unreachable): counted, so backoff can grow. */
  async countPoll(id: string): Promise<void> {
    await this.prisma.mediaTask.updateMany({ where: { id, state: LIVE }, data: { polls: { increment: 1 } } });
  }

  /**
   * Ends a task: `UPDATE … WHERE state NOT IN (terminal)`. True for the one caller that moved it, which
   * alone settles or releases its billing; false when another worker (or the sweeper) ended it first.
   * Upstream strings (error code and message, result names) are written cleaned for text and jsonb.
   */
  async finish(id: string, ending: TaskEnding): Promise<boolean> {
    const { count } = await this.prisma.mediaTask.updateMany({
      where: { id, state: LIVE },
      data: {
        state: ending.state,
        finishedAt: new Date(),
        ...(ending.state === 'succeeded' ? { progress: 100 } : {}),
        ...(ending.results ? { results: pgJson(ending.results) } : {}),
        ...(ending.usage ? { usage: ending.usage } : {}),
        ...(ending.errorCode ? { errorCode: pgText(ending.errorCode.slice(0, 200)) } : {}),
        ...(ending.errorMessage ? { errorMessage: pgText(ending.errorMessage.slice(0, 2000)) } : {}),
      },
    });
    return count === 1;
  }

  /** The task's hold was settled or released: nothing is left to bill. */
  async markBilled(id: string): Promise<void> {
    await this.prisma.mediaTask.update({ where: { id }, data: { billingHold: Prisma.DbNull } });
  }

  /** Ended tasks whose hold was not marked billed (their worker died between the terminal move and billing). */
  async unbilled(before: Date, limit: number): Promise<string[]> {
    const rows = await this.prisma.mediaTask.findMany({
      where: { state: { in: [...TERMINAL_STATES] }, finishedAt: { lt: before }, NOT: { billingHold: { equals: Prisma.DbNull } } },
      select: { id: true },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /** Live tasks past their deadline. */
  async overdue(now: Date, limit: number): Promise<string[]> {
    const rows = await this.prisma.mediaTask.findMany({ where: { state: LIVE, deadlineAt: { lt: now } }, select: { id: true }, take: limit });
    return rows.map((row) => row.id);
  }

  /** Live tasks nobody has polled since `before` (their poll job was lost): the sweeper polls them again. */
  async stale(before: Date, limit: number): Promise<string[]> {
    const rows = await this.prisma.mediaTask.findMany({ where: { state: LIVE, updatedAt: { lt: before } }, select: { id: true }, take: limit });
    return rows.map((row) => row.id);
  }
}
