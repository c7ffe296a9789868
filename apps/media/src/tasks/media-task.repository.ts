import { taskPageArgs, type TaskPageRead } from '@gateway/platform';
import type { TaskHold } from '@gateway/billing';
import { distinctRounds, pgJson, pgText, Prisma, PrismaClient, StatementBatcher, type SqlPool } from '@gateway/db';
import { SQL_POOL } from '@gateway/platform/infra';
import type { MediaJob } from '@gateway/providers';
import { Inject, Injectable } from '@nestjs/common';
import { ProducedUsage, StoredHold, StoredJob, StoredResults, type StoredResult } from './media-task.schema';
import { COUNT_POLLS_MANY, FIND_MANY, FINISH_MANY, INSERT_MANY, MARK_BILLED_MANY, MediaTaskSqlRow } from './media-task.sql';
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

/** A poll counted on a live task: its new state and progress where given. */
interface PollCount {
  id: string;
  state: MediaTaskState | null;
  progress: number | null;
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

/**
 * The only place media tasks touch Postgres. A move to a terminal state is a compare-and-swap. What every
 * poll and end runs is batched across the jobs of one event-loop turn (media-task.sql.ts).
 */
@Injectable()
export class MediaTaskRepository {
  private readonly inserts = new StatementBatcher((rows: { task: NewMediaTask; now: Date }[]) => this.insertBatch(rows));
  private readonly byId = new StatementBatcher((ids: string[]) => this.findBatch(ids));
  private readonly pollCounts = new StatementBatcher((counts: PollCount[]) => this.countPollBatch(counts));
  private readonly ends = new StatementBatcher((ends: { id: string; ending: TaskEnding }[]) => this.finishBatch(ends));
  private readonly billedMarks = new StatementBatcher((ids: string[]) => this.markBilledBatch(ids));

  constructor(
    private readonly prisma: PrismaClient,
    @Inject(SQL_POOL) private readonly sql: SqlPool,
  ) {}

  /**
   * The row of a task just submitted, on the create path of every task: the creates of one event-loop turn
   * share one named prepared statement and one commit on the pool under Prisma (a row the batch cannot take
   * is retried alone, so it fails only its own create). Times are the app's, written as UTC (the columns are
   * timestamps without zone). The client's request and the upstream's task id are written cleaned of what
   * text and jsonb refuse (NUL, lone surrogates): the upstream was sent the request as the client gave it.
   */
  async create(task: NewMediaTask): Promise<MediaTask> {
    const now = new Date();
    await this.inserts.call({ task, now });
    return { ...task, progress: 0, results: [], usage: null, errorCode: null, errorMessage: null, polls: 0, createdAt: now, updatedAt: now, finishedAt: null };
  }

  findById(id: string): Promise<MediaTask | null> {
    return this.byId.call(id);
  }

  /** Those of `ids` that have ended. */
  async findEnded(ids: readonly string[]): Promise<MediaTask[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.mediaTask.findMany({ where: { id: { in: [...ids] }, state: { in: [...TERMINAL_STATES] } } });
    return rows.map(toTask);
  }

  /** A tenant's task, read on its own family's query kind; another tenant's or another route's is not there. */
  async findForTenant(id: string, tenantId: string, family: string, queryKind: string): Promise<MediaTask | null> {
    const task = await this.byId.call(id);
    return task && task.tenantId === tenantId && task.family === family && task.queryKind === queryKind ? task : null;
  }

  /** A tenant's tasks newest first, in the asked states, after the last of the previous page; keyset, no offset. */
  async pageForTenant(query: TaskPageRead): Promise<MediaTask[]> {
    return (await this.prisma.mediaTask.findMany(taskPageArgs(query, 'state'))).map(toTask);
  }

  /** Records a live task's progress; a task that has ended meanwhile is left alone. */
  recordProgress(id: string, state: MediaTaskState, progress: number | null): Promise<void> {
    return this.pollCounts.call({ id, state, progress });
  }

  /** A poll that learned nothing (upstream busy or unreachable): counted, so backoff can grow. */
  countPoll(id: string): Promise<void> {
    return this.pollCounts.call({ id, state: null, progress: null });
  }

  /**
   * Ends a task: `UPDATE … WHERE state NOT IN (terminal)`. True for the one caller that moved it, which
   * alone settles or releases its billing; false when another worker (or the sweeper) ended it first.
   * Upstream strings (error code and message, result names) are written cleaned for text and jsonb.
   */
  finish(id: string, ending: TaskEnding): Promise<boolean> {
    return this.ends.call({ id, ending });
  }

  /** The task's hold was settled or released: nothing is left to bill. */
  markBilled(id: string): Promise<void> {
    return this.billedMarks.call(id);
  }

  private async insertBatch(rows: { task: NewMediaTask; now: Date }[]): Promise<void[]> {
    const column = <T>(pick: (task: NewMediaTask) => T) => rows.map((row) => pick(row.task));
    await this.sql.query({
      name: 'media-tasks-insert',
      text: INSERT_MANY,
      values: [
        column((t) => t.id),
        column((t) => t.tenantId),
        column((t) => t.keyId),
        column((t) => t.family),
        column((t) => t.route),
        column((t) => t.queryKind),
        column((t) => t.model),
        column((t) => t.channelId),
        column((t) => t.protocol),
        column((t) => pgText(t.upstreamTaskId)),
        column((t) => t.state),
        column((t) => JSON.stringify(pgJson(t.job))),
        column((t) => (t.hold ? JSON.stringify(t.hold) : null)),
        column((t) => t.deadlineAt.toISOString()),
        rows.map((row) => row.now.toISOString()),
        column((t) => pgText(t.clientRequestId)),
      ],
    });
    return rows.map(() => undefined);
  }

  private async findBatch(ids: string[]): Promise<(MediaTask | null)[]> {
    const { rows } = await this.sql.query({ name: 'media-tasks-by-id', text: FIND_MANY, values: [[...new Set(ids)]] });
    const tasks = new Map(rows.map((row) => toTask(MediaTaskSqlRow.parse(row) as Row)).map((task) => [task.id, task]));
    return ids.map((id) => tasks.get(id) ?? null);
  }

  private async countPollBatch(counts: PollCount[]): Promise<void[]> {
    for (const round of distinctRounds(counts, (count) => count.id)) {
      await this.sql.query({
        name: 'media-tasks-count-polls',
        text: COUNT_POLLS_MANY,
        values: [round.map((c) => c.id), round.map((c) => c.state), round.map((c) => c.progress)],
      });
    }
    return counts.map(() => undefined);
  }

  /** One statement per round of distinct tasks: two ends of one task never share a statement, so only one can win. */
  private async finishBatch(ends: { id: string; ending: TaskEnding }[]): Promise<boolean[]> {
    const won = new Map<(typeof ends)[number], boolean>();
    for (const round of distinctRounds(ends, (end) => end.id)) {
      const field = (pick: (ending: TaskEnding) => string | null) => round.map((end) => pick(end.ending));
      const { rows } = await this.sql.query<{ id: string }>({
        name: 'media-tasks-finish',
        text: FINISH_MANY,
        values: [
          round.map((end) => end.id),
          field((e) => e.state),
          field((e) => (e.results ? JSON.stringify(pgJson(e.results)) : null)),
          field((e) => (e.usage ? JSON.stringify(e.usage) : null)),
          field((e) => (e.errorCode ? pgText(e.errorCode.slice(0, 200)) : null)),
          field((e) => (e.errorMessage ? pgText(e.errorMessage.slice(0, 2000)) : null)),
        ],
      });
      const moved = new Set(rows.map((row) => row.id));
      for (const end of round) won.set(end, moved.has(end.id));
    }
    return ends.map((end) => won.get(end)!);
  }

  private async markBilledBatch(ids: string[]): Promise<void[]> {
    await this.sql.query({ name: 'media-tasks-mark-billed', text: MARK_BILLED_MANY, values: [[...new Set(ids)]] });
    return ids.map(() => undefined);
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
