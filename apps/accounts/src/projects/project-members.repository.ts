import { PrismaClient, type ConsoleRole } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

/** Roles given to people on single projects. */
@Injectable()
export class ProjectMembersRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  findUserByEmail(tenantId: string, email: string) {
    return this.prisma.consoleUser.findFirst({ where: { tenantId, email }, select: { id: true, email: true, role: true } });
  }

  findUser(tenantId: string, id: string) {
    return this.prisma.consoleUser.findFirst({ where: { tenantId, id }, select: { id: true, email: true, role: true } });
  }

  /** The project a tenant's key belongs to. */
  findProjectOfKey(tenantId: string, keyId: string) {
    return this.prisma.apiKey.findFirst({ where: { tenantId, id: keyId }, select: { project: { select: { id: true, name: true } } } });
  }

  async roleOf(projectId: string, consoleUserId: string): Promise<ConsoleRole | null> {
    const member = await this.prisma.projectMember.findUnique({ where: { projectId_consoleUserId: { projectId, consoleUserId } }, select: { role: true } });
    return member?.role ?? null;
  }

  set(projectId: string, consoleUserId: string, role: ConsoleRole) {
    return this.prisma.projectMember.upsert({
      where: { projectId_consoleUserId: { projectId, consoleUserId } },
      create: { projectId, consoleUserId, role },
      update: { role },
    });
  }

  remove(projectId: string, consoleUserId: string) {
    return this.prisma.projectMember.deleteMany({ where: { projectId, consoleUserId } });
  }
}
