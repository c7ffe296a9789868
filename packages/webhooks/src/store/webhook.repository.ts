import { randomUUID } from 'node:crypto';
import { pgJson, pgText, PrismaClient, StatementBatcher, type SqlPool, type WebhookAttemptModel, type WebhookDeliveryModel } from '@gateway/db';
import type { WebhookAttemptOutcome } from '@gateway/contracts';
import {
  DeliverySqlRow,
  DUES_OF,
  DueSqlRow,
  HEADS_OF,
  INSERT_DELIVERIES,
  RECORD_ATTEMPTS,
  STALLED_HEADS,
  StalledSqlRow,
  type DueDelivery,
  type StalledDelivery,
} from './webhook-delivery.sql';

export type { DueDelivery, StalledDelivery } from './webhook-delivery.sql';

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

type EndState = 'pending' | 'delivered' | 'dead';

/**
 * What an insert learned. `heads`: subjects whose first delivery due is known without reading it again:
 * the statement inserted every row it held for the subject, and the subject had no pending delivery
 * before, so its head is the lowest of the new rows. `unsettled`: the other subjects, whose head is read
 * after the insert has committed.
 */
export interface InsertedDeliveries {
  inserted: number;
  heads: DueDelivery[];
  unsettled: string[];
}

/** Rows by subject, the first of each (the statements return at most one per subject). */
function bySubject<T extends { subjectId: string }>(rows: readonly T[]): Map<string, T> {
  return new Map(rows.map((row) => [row.subjectId, row]));
}

/**
 * Per subject of one insert statement, its head when every row the statement held for it was inserted and
 * it had no pending delivery before: a row that lost to another writer's leaves the head to be read.
 */
function knownHeads(all: readonly NewDelivery[], inserted: ReadonlyMap<string, boolean>): Map<string, DueDelivery> {
  const lowest = new Map<string, NewDelivery>();
  const unknown = new Set<string>();
  for (const d of all) {
    if (inserted.get(d.id) !== true) unknown.add(d.subjectId);
    const low = lowest.get(d.subjectId);
    if (!low || d.seq < low.seq) lowest.set(d.subjectId, d);
  }
  const heads = new Map<string, DueDelivery>();
  for (const [subjectId, d] of lowest) {
    if (!unknown.has(subjectId)) heads.set(subjectId, { id: d.id, subjectId, attempts: 0, nextAttemptAt: null });
  }
  return heads;
}

/**
 * The only place webhook secrets, deliveries and attempts touch Postgres. The delivery hot path (insert,
 * head of a subject, next due, record an attempt) runs as prepared statements on the pg pool, the calls
 * of one event-loop turn batched into one statement; the rest goes through Prisma.
 */
export class WebhookRepository {
  private static readonly NOTHING: InsertedDeliveries = { inserted: 0, heads: [], unsettled: [] };
  private readonly inserts = new StatementBatcher((batches: (readonly NewDelivery[])[]) => this.insertBatch(batches));
  private readonly heads = new StatementBatcher((subjectIds: string[]) => this.headsBatch(subjectIds));
  private readonly dues = new StatementBatcher((subjectIds: string[]) => this.duesBatch(subjectIds));
  private readonly attempts = new StatementBatcher((records: { record: AttemptRecord; status: EndState }[]) => this.recordBatch(records));

  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: SqlPool,
  ) {}

  /**
   * Inserts the deliveries that do not exist yet (one per subject and event type): how many were new, and
   * what queuing the subjects' heads needs (see InsertedDeliveries).
   */
  insert(deliveries: readonly NewDelivery[]): Promise<InsertedDeliveries> {
    return deliveries.length === 0 ? Promise.resolve(WebhookRepository.NOTHING) : this.inserts.call(deliveries);
  }

  find(id: string): Promise<DeliveryRow | null> {
    return this.prisma.webhookDelivery.findUnique({ where: { id } });
  }

  /** The subject's first delivery still to be made, in order; null when every one has ended. */
  headOf(subjectId: string): Promise<DeliveryRow | null> {
    return this.heads.call(subjectId);
  }

  /** Of each subject that has one, the first delivery still to be made: what queuing its attempt needs. */
  async dueOf(subjectIds: readonly string[]): Promise<DueDelivery[]> {
    const due = await Promise.all(subjectIds.map((subjectId) => this.dues.call(subjectId)));
    return due.filter((row) => row !== null);
  }

  /**
   * First pending deliveries of their subjects that fell due before `dueBefore`, oldest first, after
   * `after` (the last row of the previous page), at most `limit`: what the sweep checks has a job.
   */
  async stalledHeads(dueBefore: Date, after: { dueAt: Date; id: string } | null, limit: number): Promise<StalledDelivery[]> {
    const { rows } = await this.pool.query({
      name: 'webhook-stalled-heads',
      text: STALLED_HEADS,
      values: [dueBefore.toISOString(), (after?.dueAt ?? new Date(0)).toISOString(), after?.id ?? '', limit],
    });
    return rows.map((row) => StalledSqlRow.parse(row));
  }

  listBySubject(subjectId: string): Promise<DeliveryWithHistory[]> {
    return this.prisma.webhookDelivery.findMany({
      where: { subjectId },
      orderBy: { seq: 'asc' },
      include: { history: { orderBy: { attempt: 'asc' } } },
    });
  }

  /** A tenant's deliveries with their attempts, newest first, after `after` (the last row of the previous page); keyset, no offset. */
  listForTenant(tenantId: string, query: { status?: string; after: { at: Date; id: string } | null; limit: number }): Promise<DeliveryWithHistory[]> {
    const after = query.after;
    return this.prisma.webhookDelivery.findMany({
      where: {
        tenantId,
        ...(query.status ? { status: query.status } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: query.limit,
      include: { history: { orderBy: { attempt: 'asc' } } },
    });
  }

  /** One delivery with its attempts, only when it is the tenant's. */
  async findForTenant(id: string, tenantId: string): Promise<DeliveryWithHistory | null> {
    return this.prisma.webhookDelivery.findFirst({ where: { id, tenantId }, include: { history: { orderBy: { attempt: 'asc' } } } });
  }

  /** Records an attempt and moves the delivery on, in one statement; a delivery already ended is left alone (false). */
  recordAttempt(record: AttemptRecord, status: EndState): Promise<boolean> {
    return this.attempts.call({ record, status });
  }

  private async insertBatch(batches: (readonly NewDelivery[])[]): Promise<InsertedDeliveries[]> {
    const all = batches.flat();
    const column = <T>(pick: (d: NewDelivery) => T): T[] => all.map(pick);
    const { rows } = await this.pool.query<{ id: string; subjectWasIdle: boolean }>({
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
    const inserted = new Map(rows.map((row) => [row.id, row.subjectWasIdle]));
    const heads = knownHeads(all, inserted);
    return batches.map((deliveries) => {
      const subjects = [...new Set(deliveries.map((d) => d.subjectId))];
      return {
        inserted: deliveries.filter((d) => inserted.has(d.id)).length,
        heads: subjects.flatMap((subject) => heads.get(subject) ?? []),
        unsettled: subjects.filter((subject) => !heads.has(subject)),
      };
    });
  }

  private async headsBatch(subjectIds: string[]): Promise<(DeliveryRow | null)[]> {
    const { rows } = await this.pool.query({ name: 'webhook-heads-of', text: HEADS_OF, values: [[...new Set(subjectIds)]] });
    const heads = bySubject(rows.map((row) => DeliverySqlRow.parse(row) as DeliveryRow));
    return subjectIds.map((subjectId) => heads.get(subjectId) ?? null);
  }

  private async duesBatch(subjectIds: string[]): Promise<(DueDelivery | null)[]> {
    const { rows } = await this.pool.query({ name: 'webhook-dues-of', text: DUES_OF, values: [[...new Set(subjectIds)]] });
    const due = bySubject(rows.map((row) => DueSqlRow.parse(row)));
    return subjectIds.map((subjectId) => due.get(subjectId) ?? null);
  }

  /** One statement per round of distinct deliveries (two records of one delivery never share a statement). */
  private async recordBatch(records: { record: AttemptRecord; status: EndState }[]): Promise<boolean[]> {
    const moved = new Map<(typeof records)[number], boolean>();
    let left = records;
    while (left.length > 0) {
      const seen = new Set<string>();
      const round = left.filter(({ record }) => !seen.has(record.deliveryId) && seen.add(record.deliveryId));
      left = left.filter((entry) => !round.includes(entry));
      const column = <T>(pick: (entry: (typeof records)[number]) => T): T[] => round.map(pick);
      const { rows } = await this.pool.query<{ id: string }>({
        name: 'webhook-record-attempts',
        text: RECORD_ATTEMPTS,
        values: [
          round.map(() => randomUUID()),
          column(({ record }) => record.deliveryId),
          column(({ record }) => record.attempt),
          column(({ record }) => record.outcome),
          column(({ record }) => record.responseStatus),
          column(({ record }) => record.latencyMs),
          column(({ record }) => pgText(record.error)),
          column(({ record }) => record.startedAt.toISOString()),
          column(({ record }) => record.nextAttemptAt?.toISOString() ?? null),
          column(({ status }) => status),
        ],
      });
      const ids = new Set(rows.map((row) => row.id));
      for (const entry of round) moved.set(entry, ids.has(entry.record.deliveryId));
    }
    return records.map((entry) => moved.get(entry)!);
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

  /**
   * Adds a new current secret; the current one (if any) keeps signing until `graceUntil`. With
   * `revokeAll`, every secret still signing (the current one and any in its grace window) ends at `graceUntil`.
   */
  async rotate(tenantId: string, secret: string, graceUntil: Date, revokeAll = false): Promise<{ createdAt: Date; previousValidUntil: Date | null }> {
    return this.prisma.$transaction(async (tx) => {
      const signing = revokeAll ? { OR: [{ expiresAt: null }, { expiresAt: { gt: graceUntil } }] } : { expiresAt: null };
      const { count } = await tx.webhookSecret.updateMany({ where: { tenantId, ...signing }, data: { expiresAt: graceUntil } });
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
