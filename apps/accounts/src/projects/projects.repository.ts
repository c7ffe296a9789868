import { DEFAULT_PROJECT } from '@gateway/contracts';
import { Prisma, PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

const withKeyCount = { _count: { select: { keys: true } } } as const;

/** A project's model lists; absent: no restriction. */
export interface ProjectModelLists {
  models?: string[];
  denyModels?: string[];
}

@Injectable()
export class ProjectsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** The tenant's project of that name; `default` is made the first time it is asked for. */
  async findOrDefault(tenantId: string, name: string) {
    if (name !== DEFAULT_PROJECT) return this.prisma.project.findUnique({ where: { tenantId_name: { tenantId, name } } });
    return this.prisma.project.upsert({ where: { tenantId_name: { tenantId, name } }, create: { tenantId, name }, update: {} });
  }

  /** A new project; null when the tenant already has one of that name. */
  async create(tenantId: string, name: string, lists: ProjectModelLists = {}) {
    try {
      return await this.prisma.project.create({ data: { tenantId, name, ...lists }, include: withKeyCount });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return null;
      throw error;
    }
  }

  /** The tenant's projects by name, `default` made first if it is missing, each with its number of keys. */
  async list(tenantId: string) {
    await this.findOrDefault(tenantId, DEFAULT_PROJECT);
    return this.prisma.project.findMany({ where: { tenantId }, orderBy: { name: 'asc' }, include: withKeyCount });
  }
}

export type ProjectRecord = NonNullable<Awaited<ReturnType<ProjectsRepository['create']>>>;
