import { PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

@Injectable()
export class BalanceRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** Appends the ledger row and moves the cached balance in one transaction: the two never disagree. */
  async topup(tenantId: string, amountMicros: bigint, note: string | null): Promise<bigint> {
    const [, balance] = await this.prisma.$transaction([
      this.prisma.ledgerEntry.create({ data: { tenantId, kind: 'topup', amountMicros, note } }),
      this.prisma.balance.upsert({
        where: { tenantId },
        create: { tenantId, micros: amountMicros },
        update: { micros: { increment: amountMicros } },
      }),
    ]);
    return balance.micros;
  }

  async current(tenantId: string): Promise<bigint> {
    const balance = await this.prisma.balance.findUnique({ where: { tenantId } });
    return balance?.micros ?? 0n;
  }
}
