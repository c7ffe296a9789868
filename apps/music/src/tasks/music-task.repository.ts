import type { MusicTaskStatus } from '@gateway/contracts';
import { pgJson, Prisma, PrismaClient, type MusicTaskModel } from '@gateway/db';
import { Injectable } from '@nestjs/common';

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

/** The only place music tasks touch Postgres; every state change is a compare-and-swap on the status. */
@Injectable()
export class MusicTaskRepository {
  constructor(private readonly prisma: PrismaClient) {}

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

  findByTokenHash(tokenHash: string): Promise<MusicTaskRow | null> {
    return this.prisma.musicTask.findUnique({ where: { tokenHash } });
  }

  async setUpstream(id: string, upstreamTaskId: string, hold: unknown): Promise<void> {
    await this.prisma.musicTask.updateMany({
      where: { id, upstreamTaskId: null },
      data: { upstreamTaskId, hold: hold === null ? Prisma.DbNull : (hold as Prisma.InputJsonValue) },
    });
  }

  async setHold(id: string, hold: unknown): Promise<void> {
    await this.prisma.musicTask.update({ where: { id }, data: { hold: hold as Prisma.InputJsonValue } });
  }

  /** Moves the task from `from` to `to`; false when another writer moved it first. */
  async move(id: string, from: MusicTaskStatus, to: MusicTaskStatus, data: MoveData, terminal: boolean): Promise<boolean> {
    const { count } = await this.prisma.musicTask.updateMany({
      where: { id, status: from },
      data: {
        status: to,
        result: data.result === undefined ? undefined : (pgJson(data.result) as Prisma.InputJsonValue),
        upstreamTaskId: data.upstreamTaskId,
        errorCode: data.errorCode,
        errorMessage: data.errorMessage,
        completedAt: terminal ? new Date() : undefined,
      },
    });
    return count === 1;
  }
}
