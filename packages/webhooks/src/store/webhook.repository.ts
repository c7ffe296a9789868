import { randomUUID } from 'node:crypto';
import { pgJson, pgText, PrismaClient, type SqlPool, type WebhookAttemptModel, type WebhookDeliveryModel } from '@gateway/db';
import type { WebhookAttemptOutcome } from '@gateway/contracts';
import { DeliverySqlRow, DUE_OF, DUES_OF, DueSqlRow, HEAD_OF, INSERT_DELIVERIES, RECORD_ATTEMPT, type DueDelivery } from './webhook-delivery.sql';

export type { DueDelivery } from './webhook-delivery.sql';

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

function deliveryOf(row: unknown): DeliveryRow {
  return DeliverySqlRow.parse(row) as DeliveryRow;
}

/**
 * The only place webhook secrets, deliveries and attempts touch Postgres. The delivery hot path (insert,
 * head of a subject, record an attempt) runs as prepared statements on the pg pool; the rest through Prisma.
 */
export class WebhookRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: SqlPool,
  ) {}

  /** Inserts the deliveries that do not exist yet (one per subject and event type); returns how many were new. */
  async insertDeliveries(deliveries: readonly NewDelivery[]): Promise<number> {
    if (deliveries.length === 0) return 0;
    const column = <T>(pick: (d: NewDelivery) => T): T[] => deliveries.map(pick);
    const result = await this.pool.query({
      name: 'webhook-insert-deliveries',
      text: INSERT_DELIVERIES,
      values: [
        column((d) => d.id),
        column((d) => d.tenantId),
        column((d) => d.subjectId),
        column((d) => d.eventType),
        column((d) => d.seq),
        column((d) => d.url),
        column((d) => JSON.stringify(pgJson(d.payload))),
      ],
    });
    return result.rowCount ?? 0;
  }

  find(id: string): Promise<DeliveryRow | null> {
    return this.prisma.webhookDelivery.findUnique({ where: { id } });
  }

  /** The subject's first delivery still to be made, in order; null when every one has ended. */
  async headOf(subjectId: string): Promise<DeliveryRow | null> {
    const { rows } = await this.pool.query({ name: 'webhook-head-of', text: HEAD_OF, values: [subjectId] });
    return rows.length === 0 ? null : deliveryOf(rows[0]);
  }

  /** Of each subject that has one, the first delivery still to be made: what queuing its attempt needs. */
  async dueOf(subjectIds: readonly string[]): Promise<DueDelivery[]> {
    if (subjectIds.length === 0) return [];
    const { rows } =
      subjectIds.length === 1
        ? await this.pool.query({ name: 'webhook-due-of', text: DUE_OF, values: [subjectIds[0]] })
        : await this.pool.query({ name: 'webhook-dues-of', text: DUES_OF, values: [[...subjectIds]] });
    return rows.map((row) => DueSqlRow.parse(row));
  }

  listBySubject(subjectId: string): Promise<DeliveryWithHistory[]> {
    return this.prisma.webhookDelivery.findMany({
      where: { subjectId },
      orderBy: { seq: 'asc' },
      include: { history: { orderBy: { attempt: 'asc' } } },
    });
  }

  /** Records an attempt and moves the delivery on, in one statement; a delivery already ended is left alone. */
  async recordAttempt(record: AttemptRecord, status: 'pending' | 'delivered' | 'dead'): Promise<boolean> {
    const result = await this.pool.query({
      name: 'webhook-record-attempt',
      text: RECORD_ATTEMPT,
      values: [
        randomUUID(),
        record.deliveryId,
        record.attempt,
        record.outcome,
        record.responseStatus,
        record.latencyMs,
        pgText(record.error),
        record.startedAt.toISOString(),
        record.nextAttemptAt?.toISOString() ?? null,
        status,
      ],
    });
    return result.rowCount === 1;
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
