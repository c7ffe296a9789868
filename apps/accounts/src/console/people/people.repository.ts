import { PrismaClient, type ConsoleRole } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

const withTenant = { tenant: { select: { id: true, slug: true } } } as const;

/** Console users and their invites. */
@Injectable()
export class PeopleRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  findByEmail(email: string) {
    return this.prisma.consoleUser.findUnique({ where: { email }, include: withTenant });
  }

  findByOidcSubject(issuer: string, subject: string) {
    return this.prisma.consoleUser.findUnique({ where: { oidcIssuer_oidcSubject: { oidcIssuer: issuer, oidcSubject: subject } }, include: withTenant });
  }

  createUser(user: { tenantId: string; email: string; role: ConsoleRole; oidcIssuer?: string; oidcSubject?: string }) {
    return this.prisma.consoleUser.create({ data: user, include: withTenant });
  }

  linkOidcSubject(userId: string, issuer: string, subject: string) {
    return this.prisma.consoleUser.update({ where: { id: userId }, data: { oidcIssuer: issuer, oidcSubject: subject }, include: withTenant });
  }

  listByTenant(tenantId: string) {
    return this.prisma.consoleUser.findMany({ where: { tenantId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: withTenant });
  }

  /** A new invite replaces the person's earlier ones that were never followed. */
  async replaceInvites(userId: string, invite: { role: ConsoleRole; tokenHash: string; expiresAt: Date }) {
    const [, created] = await this.prisma.$transaction([
      this.prisma.consoleInvite.deleteMany({ where: { userId, acceptedAt: null } }),
      this.prisma.consoleInvite.create({ data: { userId, ...invite } }),
    ]);
    return created;
  }

  findOpenInvite(tokenHash: string, now = new Date()) {
    return this.prisma.consoleInvite.findFirst({
      where: { tokenHash, acceptedAt: null, expiresAt: { gt: now } },
      include: { user: { include: withTenant } },
    });
  }

  /**
   * Follows an invite once: marks it accepted only if it still is open (two tabs racing: one wins), then
   * sets the password and the invite's role. Returns false when the invite was no longer open.
   */
  async acceptInvite(inviteId: string, userId: string, role: ConsoleRole, passwordHash: string, now = new Date()): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const taken = await tx.consoleInvite.updateMany({ where: { id: inviteId, acceptedAt: null, expiresAt: { gt: now } }, data: { acceptedAt: now } });
      if (taken.count !== 1) return false;
      await tx.consoleUser.update({ where: { id: userId }, data: { passwordHash, role, failedSignIns: 0, lockedUntil: null } });
      return true;
    });
  }

  /** Mirrors a wrong password's count and lock (kept in Redis) where operators see people; a lock is only ever extended. */
  recordFailure(userId: string, failures: number, lockedUntil: Date | null) {
    return this.prisma.consoleUser.update({ where: { id: userId }, data: { failedSignIns: failures, ...(lockedUntil ? { lockedUntil } : {}) } });
  }

  clearFailures(userId: string) {
    return this.prisma.consoleUser.update({ where: { id: userId }, data: { failedSignIns: 0, lockedUntil: null } });
  }
}

export type UserRecord = NonNullable<Awaited<ReturnType<PeopleRepository['findByEmail']>>>;
