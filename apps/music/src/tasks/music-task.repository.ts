import type { MusicTaskStatus } from '@gateway/contracts';
import { pgJson, pgText, Prisma, PrismaClient, type MusicTaskModel, type SqlPool } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import { MUSIC_SQL_POOL } from '../config/infra.module';
import { FIND_BY_TOKEN_HASH, MOVE, MusicTaskSqlRow } from './music-task.sql';

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
  deadlineAt: Date;
}

export interface MoveData {
  result?: unknown;
  upstreamTaskId?: string;
  errorCode?: number | null;
  errorMessage?: string | null;
}

/**
 * The only place music tasks touch Postgres; every state change is a compare-and-swap on the status.
 * What every upstream callback runs (find by token, move) goes as prepared statements on the pool.
 */
@Injectable()
export class MusicTaskRepository {
  constructor(
    private readonly prisma: PrismaClient,
    @Inject(MUSIC_SQL_POOL) private readonly pool: SqlPool,
  ) {}

  create(task: NewMusicTask): Promise<MusicTaskRow> {
    return this.prisma.musicTask.create({ data: { ...task, request: pgJson(task.request) as Prisma.InputJsonValue, status: 'PENDING' } });
  }

  find(id: string): Promise<MusicTaskRow | null> {
    return this.prisma.musicTask.findUnique({ where: { id } });
  }

  /** A tenant's own task; another tenant's id finds nothing, exactly as a missing one. */
  findForTenant(tenantId: string, id: string): Promise<MusicTaskRow | null> {
    return this.prisma.musicTask.findFirst({ where: { id, tenantId } });
  }

  async findByTokenHash(tokenHash: string): Promise<MusicTaskRow | null> {
    const { rows } = await this.pool.query({ name: 'music-task-by-token', text: FIND_BY_TOKEN_HASH, values: [tokenHash] });
    return rows.length === 0 ? null : (MusicTaskSqlRow.parse(rows[0]) as MusicTaskRow);
  }

  async setUpstream(id: string, upstreamTaskId: string, hold: unknown): Promise<void> {
    await this.prisma.musicTask.updateMany({
      where: { id, upstreamTaskId: null },
      data: { upstreamTaskId: pgText(upstreamTaskId), hold: hold === null ? Prisma.DbNull : (hold as Prisma.InputJsonValue) },
    });
  }

  async setHold(id: string, hold: unknown): Promise<void> {
    await this.prisma.musicTask.update({ where: { id }, data: { hold: hold as Prisma.InputJsonValue } });
  }

  /**
   * Moves the task from `from` to `to`; false when another writer moved it first. The upstream's strings
   * (its task id, error message, result) are written cleaned of what text and jsonb refuse (NUL, lone surrogates).
   */
  async move(id: string, from: MusicTaskStatus, to: MusicTaskStatus, data: MoveData, terminal: boolean): Promise<boolean> {
    const given = <T>(value: T | undefined): [boolean, T | null] => [value !== undefined, value ?? null];
    const result = await this.pool.query({
      name: 'music-task-move',
      text: MOVE,
      values: [
        id,
        from,
        to,
        ...given(data.result === undefined ? undefined : JSON.stringify(pgJson(data.result))),
        ...given(data.upstreamTaskId === undefined ? undefined : pgText(data.upstreamTaskId)),
        ...given(data.errorCode),
        ...given(data.errorMessage === undefined ? undefined : pgText(data.errorMessage)),
        terminal,
      ],
    });
    return result.rowCount === 1;
  }
}
