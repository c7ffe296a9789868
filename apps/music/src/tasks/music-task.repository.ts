import { taskPageArgs, type TaskPageRead } from '@gateway/platform';
import type { MusicTaskStatus } from '@gateway/contracts';
import { pgJson, pgText, Prisma, PrismaClient, StatementBatcher, type MusicTaskModel, type SqlPool } from '@gateway/db';
import { SQL_POOL } from '@gateway/platform/infra';
import { Inject, Injectable } from '@nestjs/common';
import { FIND_BY_TOKEN_HASHES, MARK_BILLED_MANY, MOVE_MANY, MusicTaskSqlRow } from './music-task.sql';

export type MusicTaskRow = MusicTaskModel;

export interface NewMusicTask {
  id: string;
  tenantId: string;
  keyId: string;
  route: string;
  queryKind: string;
  model: string;
  channelId: string;
  tokenHash: string;
  callBackUrl: string;
  request: unknown;
  /** The x-request-id its client sent, for its usage record. */
  clientRequestId?: string | null;
  deadlineAt: Date;
}

export interface MoveData {
  result?: unknown;
  upstreamTaskId?: string;
  errorCode?: number | null;
  errorMessage?: string | null;
}

interface Move {
  id: string;
  from: MusicTaskStatus;
  to: MusicTaskStatus;
  data: MoveData;
  terminal: boolean;
}

/**
 * The only place music tasks touch Postgres; every state change is a compare-and-swap on the status.
 * What every upstream callback runs (find by token, move, mark billed) goes as prepared statements on the
 * pool, the calls of one event-loop turn batched into one statement.
 */
@Injectable()
export class MusicTaskRepository {
  private readonly byToken = new StatementBatcher((hashes: string[]) => this.findBatch(hashes));
  private readonly moves = new StatementBatcher((moves: Move[]) => this.moveBatch(moves));
  private readonly billedMarks = new StatementBatcher((ids: string[]) => this.markBilledBatch(ids));

  constructor(
    private readonly prisma: PrismaClient,
    @Inject(SQL_POOL) private readonly pool: SqlPool,
  ) {}

  create(task: NewMusicTask): Promise<MusicTaskRow> {
    return this.prisma.musicTask.create({
      data: { ...task, clientRequestId: pgText(task.clientRequestId), request: pgJson(task.request) as Prisma.InputJsonValue, status: 'PENDING' },
    });
  }

  find(id: string): Promise<MusicTaskRow | null> {
    return this.prisma.musicTask.findUnique({ where: { id } });
  }

  /** A tenant's own task; another tenant's id finds nothing, exactly as a missing one. */
  findForTenant(tenantId: string, id: string): Promise<MusicTaskRow | null> {
    return this.prisma.musicTask.findFirst({ where: { id, tenantId } });
  }

  /** A tenant's tasks newest first, in the asked statuses, after the last of the previous page; keyset, no offset. */
  pageForTenant(query: TaskPageRead): Promise<MusicTaskRow[]> {
    return this.prisma.musicTask.findMany(taskPageArgs(query, 'status'));
  }

  findByTokenHash(tokenHash: string): Promise<MusicTaskRow | null> {
    return this.byToken.call(tokenHash);
  }

  async setUpstream(id: string, upstreamTaskId: string, hold: unknown): Promise<void> {
    await this.prisma.musicTask.updateMany({
      where: { id, upstreamTaskId: null },
      data: { upstreamTaskId: pgText(upstreamTaskId), hold: hold === null ? Prisma.DbNull : (hold as Prisma.InputJsonValue) },
    });
  }

  /** The task's hold was ended and its usage record published: nothing is left to bill. */
  markBilled(id: string): Promise<void> {
    return this.billedMarks.call(id);
  }

  private async markBilledBatch(ids: string[]): Promise<void[]> {
    await this.pool.query({ name: 'music-tasks-mark-billed', text: MARK_BILLED_MANY, values: [ids] });
    return ids.map(() => undefined);
  }

  async setHold(id: string, hold: unknown): Promise<void> {
    await this.prisma.musicTask.update({ where: { id }, data: { hold: hold as Prisma.InputJsonValue } });
  }

  /**
   * Moves the task from `from` to `to`; false when another writer moved it first. The upstream's strings
   * (its task id, error message, result) are written cleaned of what text and jsonb refuse (NUL, lone surrogates).
   */
  move(id: string, from: MusicTaskStatus, to: MusicTaskStatus, data: MoveData, terminal: boolean): Promise<boolean> {
    return this.moves.call({ id, from, to, data, terminal });
  }

  private async findBatch(hashes: string[]): Promise<(MusicTaskRow | null)[]> {
    const { rows } = await this.pool.query({ name: 'music-tasks-by-token', text: FIND_BY_TOKEN_HASHES, values: [[...new Set(hashes)]] });
    const tasks = new Map(rows.map((row) => MusicTaskSqlRow.parse(row) as MusicTaskRow).map((task) => [task.tokenHash, task]));
    return hashes.map((hash) => tasks.get(hash) ?? null);
  }

  /** One statement per round of distinct tasks: two moves of one task never share a statement, so only one can win. */
  private async moveBatch(moves: Move[]): Promise<boolean[]> {
    const won = new Map<Move, boolean>();
    let left = moves;
    while (left.length > 0) {
      const seen = new Set<string>();
      const round = left.filter((move) => !seen.has(move.id) && seen.add(move.id));
      left = left.filter((move) => !round.includes(move));
      const given = (pick: (data: MoveData) => unknown) => round.map((move) => pick(move.data) !== undefined);
      const value = <T>(pick: (data: MoveData) => T | undefined) => round.map((move) => pick(move.data) ?? null);
      const { rows } = await this.pool.query<{ id: string }>({
        name: 'music-tasks-move',
        text: MOVE_MANY,
        values: [
          round.map((move) => move.id),
          round.map((move) => move.from),
          round.map((move) => move.to),
          given((data) => data.result),
          value((data) => (data.result === undefined ? undefined : JSON.stringify(pgJson(data.result)))),
          given((data) => data.upstreamTaskId),
          value((data) => (data.upstreamTaskId === undefined ? undefined : pgText(data.upstreamTaskId))),
          given((data) => data.errorCode),
          value((data) => data.errorCode),
          given((data) => data.errorMessage),
          value((data) => (data.errorMessage === undefined ? undefined : pgText(data.errorMessage))),
          round.map((move) => move.terminal),
        ],
      });
      const moved = new Set(rows.map((row) => row.id));
      for (const move of round) won.set(move, moved.has(move.id));
    }
    return moves.map((move) => won.get(move)!);
  }
}
