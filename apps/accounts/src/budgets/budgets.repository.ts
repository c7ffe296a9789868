import { PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

/** A budget's target as stored: exactly one of keyId and projectId. */
export interface BudgetTargetIds {
  tenantId: string;
  scope: 'key' | 'project';
  keyId: string | null;
  projectId: string | null;
}

export interface BudgetValues {
  amountMicros: bigint;
  period: string;
  mode: string;
  alertAt: number[];
}

const withNames = {
  key: { select: { id: true, name: true, project: { select: { name: true } } } },
  project: { select: { name: true } },
  tenant: { select: { slug: true } },
} as const;

@Injectable()
export class BudgetsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** A key with its tenant and project, for naming a budget's target. */
  findKey(id: string) {
    return this.prisma.apiKey.findUnique({
      where: { id },
      select: { id: true, name: true, tenantId: true, tenant: { select: { slug: true } }, project: { select: { name: true } } },
    });
  }

  keyWithBudgets(id: string) {
    return this.prisma.apiKey.findUnique({ where: { id }, select: { name: true, budget: true, project: { select: { name: true, budget: true } } } });
  }

  findProject(tenantId: string, name: string) {
    return this.prisma.project.findUnique({ where: { tenantId_name: { tenantId, name } }, select: { id: true, name: true } });
  }

  find(target: BudgetTargetIds) {
    return this.prisma.budget.findUnique({ where: target.keyId ? { keyId: target.keyId } : { projectId: target.projectId! }, include: withNames });
  }

  upsert(target: BudgetTargetIds, values: BudgetValues) {
    const where = target.keyId ? { keyId: target.keyId } : { projectId: target.projectId! };
    return this.prisma.budget.upsert({ where, create: { ...target, ...values }, update: values, include: withNames });
  }

  /** True when there was a budget to remove. */
  async remove(target: BudgetTargetIds): Promise<boolean> {
    const { count } = await this.prisma.budget.deleteMany({ where: target.keyId ? { keyId: target.keyId } : { projectId: target.projectId! } });
    return count > 0;
  }

  /** What the ledger charged each budget counter: the negated sum of the entries naming it (open holds count as held). */
  async charges(counterIds: readonly string[]): Promise<Map<string, bigint>> {
    const charges = new Map<string, bigint>();
    if (counterIds.length === 0) return charges;
    const rows = await this.prisma.$queryRaw<Array<{ counter: string; charged: bigint }>>`
      SELECT counter, -sum(l.amount_micros)::bigint AS charged
        FROM ledger_entries l, unnest(l.budgets) AS counter
       WHERE l.budgets && ${counterIds}::text[] AND counter = ANY(${counterIds}::text[])
       GROUP BY counter`;
    for (const row of rows) charges.set(row.counter, BigInt(row.charged));
    return charges;
  }

  listAll() {
    return this.prisma.budget.findMany({ include: withNames });
  }

  listByTenant(tenantId: string) {
    return this.prisma.budget.findMany({ where: { tenantId }, orderBy: [{ scope: 'desc' }, { createdAt: 'asc' }], include: withNames });
  }
}

export type BudgetRecord = NonNullable<Awaited<ReturnType<BudgetsRepository['find']>>>;
