import { Prisma, PrismaClient, type WebhookAttemptModel, type WebhookDeliveryModel } from '@gateway/db';
import type { WebhookAttemptOutcome } from '@gateway/contracts';

export type DeliveryRow = WebhookDeliveryModel;
export type DeliveryWithHistory = WebhookDeliveryModel & { history: WebhookAttemptModel[] };

export interface NewDelivery {
  id: string;
  tenantId: string;
  subjectId: string;
  eventType: string;
  seq: number;
  url: string;
  payload: unknown;
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  outcome: WebhookAttemptOutcome;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
  startedAt: Date;
  nextAttemptAt: Date | null;
}

/** The only place webhook secrets, deliveries and attempts touch Postgres. */
export class WebhookRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Inserts the deliveries that do not exist yet (one per subject and event type); returns how many were new. */
  async insertDeliveries(deliveries: readonly NewDelivery[]): Promise<number> {
    if (deliveries.length === 0) return 0;
    const { count } = await this.prisma.webhookDelivery.createMany({
      data: deliveries.map((d) => ({ ...d, payload: d.payload as Prisma.InputJsonValue })),
      skipDuplicates: true,
    });
    return count;
  }

  find(id: string): Promise<DeliveryRow | null> {
    return this.prisma.webhookDelivery.findUnique({ where: { id } });
  }

  /** The subject's first delivery still to be made, in order; null when every one has ended. */
  headOf(subjectId: string): Promise<DeliveryRow | null> {
    return this.prisma.webhookDelivery.findFirst({ where: { subjectId, status: 'pending' }, orderBy: { seq: 'asc' } });
  }

  listBySubject(subjectId: string): Promise<DeliveryWithHistory[]> {
    return this.prisma.webhookDelivery.findMany({
      where: { subjectId },
      orderBy: { seq: 'asc' },
      include: { history: { orderBy: { attempt: 'asc' } } },
    });
  }

  /** Records an attempt and moves the delivery on, in one transaction; a delivery already ended is left alone. */
  async recordAttempt(record: AttemptRecord, status: 'pending' | 'delivered' | 'dead'): Promise<boolean> {
    const [, updated] = await this.prisma.$transaction([
      this.prisma.webhookAttempt.create({ data: record }),
      this.prisma.webhookDelivery.updateMany({
        where: { id: record.deliveryId, status: 'pending' },
        data: {
          status,
          attempts: record.attempt,
          nextAttemptAt: record.nextAttemptAt,
          deliveredAt: status === 'delivered' ? new Date() : undefined,
        },
      }),
    ]);
    return updated.count === 1;
  }

  /** Puts an ended delivery back to pending for another round of attempts (an operator's redelivery). */
  async reopen(id: string): Promise<DeliveryRow | null> {
    const { count } = await this.prisma.webhookDelivery.updateMany({
      where: { id, status: { in: ['delivered', 'dead'] } },
      data: { status: 'pending', nextAttemptAt: new Date(), deliveredAt: null },
    });
    return count === 1 ? this.find(id) : null;
  }

  /** Secrets that sign now: the newest, and any rotated out whose grace window is still open. */
  signingSecrets(tenantId: string, now: Date): Promise<{ secret: string }[]> {
    return this.prisma.webhookSecret.findMany({
      where: { tenantId, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      orderBy: { createdAt: 'desc' },
      select: { secret: true },
    });
  }

  /** Adds a new current secret; the current one (if any) keeps signing until `graceUntil`. */
  async rotate(tenantId: string, secret: string, graceUntil: Date): Promise<{ createdAt: Date; previousValidUntil: Date | null }> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.webhookSecret.updateMany({ where: { tenantId, expiresAt: null }, data: { expiresAt: graceUntil } });
      const created = await tx.webhookSecret.create({ data: { tenantId, secret } });
      return { createdAt: created.createdAt, previousValidUntil: count > 0 ? graceUntil : null };
    });
  }

  /** Creates the tenant's first secret unless one exists (concurrent callers may both create one: the newest signs first). */
  async ensureSecret(tenantId: string, secret: string): Promise<void> {
    const existing = await this.prisma.webhookSecret.findFirst({ where: { tenantId, expiresAt: null }, select: { id: true } });
    if (!existing) await this.prisma.webhookSecret.create({ data: { tenantId, secret } });
  }
}
