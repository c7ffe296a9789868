import { Prisma, PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

const withKeysAndMembers = {
  keys: { select: { id: true, name: true, masked: true, status: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
  members: { select: { role: true, consoleUser: { select: { id: true, email: true, role: true } } }, orderBy: { createdAt: 'asc' } },
} satisfies Prisma.ProjectInclude;

/** A tenant's projects as the console's Projects page reads them: keys and the people given roles on each. */
@Injectable()
export class ConsoleProjectsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  listWithKeysAndMembers(tenantId: string) {
    return this.prisma.project.findMany({ where: { tenantId }, orderBy: { name: 'asc' }, include: withKeysAndMembers });
  }
}

export type ConsoleProjectRecord = Awaited<ReturnType<ConsoleProjectsRepository['listWithKeysAndMembers']>>[number];
