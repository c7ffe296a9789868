import { PrismaClient, type Prisma } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

const withUser = { user: { include: { tenant: { select: { id: true, slug: true } } } } } as const;

export interface NewSession {
  kind: 'tenant' | 'operator';
  userId: string | null;
  tokenHash: string;
  csrfToken: string;
  ip: string | null;
  userAgent: string | null;
  expiresAt: Date;
}

/** Console sessions: rows keyed by the cookie token's hash; ending one sets revokedAt. */
@Injectable()
export class SessionsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  create(session: NewSession) {
    return this.prisma.consoleSession.create({ data: session, include: withUser });
  }

  findByTokenHash(tokenHash: string) {
    return this.prisma.consoleSession.findUnique({ where: { tokenHash }, include: withUser });
  }

  /** Live sessions matching `where`, newest first. */
  findLive(where: Prisma.ConsoleSessionWhereInput, now = new Date()) {
    return this.prisma.consoleSession.findMany({
      where: { ...where, revokedAt: null, expiresAt: { gt: now } },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      include: withUser,
      take: 500,
    });
  }

  /** Ends the live sessions matching `where`; returns the token hashes it ended, for the edges to drop. */
  async revoke(where: Prisma.ConsoleSessionWhereInput, now = new Date()): Promise<string[]> {
    const live = await this.prisma.consoleSession.findMany({
      where: { ...where, revokedAt: null, expiresAt: { gt: now } },
      select: { id: true, tokenHash: true },
    });
    if (live.length === 0) return [];
    await this.prisma.consoleSession.updateMany({ where: { id: { in: live.map((s) => s.id) }, revokedAt: null }, data: { revokedAt: now } });
    return live.map((s) => s.tokenHash);
  }

  /** Sessions past their end for a day are of no use, even for the list: removed now and then. */
  removeStale(now = new Date()) {
    return this.prisma.consoleSession.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 86_400_000) } } });
  }
}

export type SessionRecord = NonNullable<Awaited<ReturnType<SessionsRepository['findByTokenHash']>>>;
