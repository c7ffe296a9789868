import type { AssistantsListQuery } from '@gateway/contracts';
import { pgJson, PrismaClient, tenantStorage, type Prisma } from '@gateway/db';
import { Injectable } from '@nestjs/common';
import type { StoredSize } from './stored-size';

export type AssistantObjectKind = 'assistant' | 'thread' | 'run';

/** Where an object lives: the catalog model whose channel created it, that channel, and its provider. */
export interface ObjectHome {
  modelId: string;
  channelId: string;
  providerId: string;
}

export interface OwnedObject extends ObjectHome {
  id: string;
  kind: AssistantObjectKind;
  tenantId: string;
  createdAt: Date;
}

/** A run's billing facts, kept from its start until the upstream reports its usage. */
export interface RunRecord extends OwnedObject {
  threadId: string | null;
  requestId: string | null;
  keyId: string | null;
  hold: unknown;
  usageRecordedAt: Date | null;
}

export interface NewObject extends ObjectHome {
  id: string;
  kind: AssistantObjectKind;
  tenantId: string;
  snapshot?: Record<string, unknown>;
  threadId?: string;
  requestId?: string;
  keyId?: string;
  hold?: unknown;
  /** Runs: when the run sweeper first asks the upstream about it. */
  sweepAt?: Date;
  /** Assistants and threads: what their instructions or messages take (already claimed against the tenant's quota). */
  stored?: StoredSize;
}

export interface AssistantPage {
  data: Record<string, unknown>[];
  hasMore: boolean;
}

const OWNED = { id: true, kind: true, tenantId: true, modelId: true, channelId: true, providerId: true, createdAt: true } as const;
const RUN = { ...OWNED, threadId: true, requestId: true, keyId: true, hold: true, usageRecordedAt: true } as const;

/** A run row as the sweeper's raw statement returns it. */
type RawRun = Omit<RunRecord, 'kind' | 'createdAt' | 'usageRecordedAt'> & { createdAt: Date | string; usageRecordedAt: Date | string | null };

const json = (value: unknown) => pgJson(value) as Prisma.InputJsonValue;

/** The only reader and writer of assistant_objects: who owns each assistants-API id and where it lives. */
@Injectable()
export class AssistantObjectsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async record(object: NewObject): Promise<void> {
    const { snapshot, hold, stored, ...rest } = object;
    await this.prisma.assistantObject.create({
      data: {
        ...rest,
        ...(snapshot ? { snapshot: json(snapshot) } : {}),
        ...(hold !== undefined ? { hold: json(hold) } : {}),
        ...(stored ? { storedBytes: stored.bytes, storedTokens: stored.tokens } : {}),
      },
    });
  }

  /** Counts `bytes` toward the tenant's stored total when it stays within `quota`; false, and nothing counted, when it would not. */
  async claimStorage(tenantId: string, bytes: bigint, quota: bigint): Promise<boolean> {
    return tenantStorage.claim(this.prisma, tenantId, bytes, quota);
  }

  /** Gives back bytes claimed for something the upstream then refused. */
  async releaseStorage(tenantId: string, bytes: bigint): Promise<void> {
    await tenantStorage.release(this.prisma, tenantId, bytes);
  }

  /** The stored size of the tenant's objects among `ids` (assistants, threads), by id. */
  async storedSizes(tenantId: string, ids: readonly string[]): Promise<Map<string, StoredSize>> {
    const rows = await this.prisma.assistantObject.findMany({
      where: { tenantId, id: { in: [...ids] } },
      select: { id: true, storedBytes: true, storedTokens: true },
    });
    return new Map(rows.map((row) => [row.id, { bytes: row.storedBytes, tokens: row.storedTokens }]));
  }

  /** Moves an object's stored size by `delta` (messages added to a thread, an answer's tokens known), never below zero. */
  async growStored(id: string, delta: StoredSize): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE assistant_objects
      SET stored_bytes = GREATEST(stored_bytes + ${delta.bytes}::bigint, 0), stored_tokens = GREATEST(stored_tokens + ${delta.tokens}::bigint, 0)
      WHERE id = ${id}`;
  }

  /**
   * Sets an assistant's stored size anew (its instructions or tools replaced): `claimed` bytes were counted
   * for the update beforehand; what the old size and the claim hold beyond the new size goes back.
   */
  async replaceStored(tenantId: string, id: string, stored: StoredSize, claimed: bigint): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const row = await tx.assistantObject.findFirst({ where: { id, tenantId }, select: { storedBytes: true } });
      if (!row) return;
      await tx.assistantObject.update({ where: { id }, data: { storedBytes: stored.bytes, storedTokens: stored.tokens } });
      await tenantStorage.release(tx, tenantId, row.storedBytes + claimed - stored.bytes);
    });
  }

  /** Null when the id is unknown, of another kind, or another tenant's: callers cannot tell these apart. */
  async find(tenantId: string, kind: AssistantObjectKind, id: string): Promise<OwnedObject | null> {
    const row = await this.prisma.assistantObject.findFirst({ where: { id, tenantId, kind }, select: OWNED });
    return row ? { ...row, kind: row.kind as AssistantObjectKind } : null;
  }

  /** The tenant's newest assistant, if any. */
  async newestAssistant(tenantId: string): Promise<OwnedObject | null> {
    const row = await this.prisma.assistantObject.findFirst({
      where: { tenantId, kind: 'assistant' },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: OWNED,
    });
    return row ? { ...row, kind: 'assistant' } : null;
  }

  /** The tenant's runs among `ids`, by id. */
  async runs(tenantId: string, ids: readonly string[]): Promise<Map<string, RunRecord>> {
    if (ids.length === 0) return new Map();
    const rows = await this.prisma.assistantObject.findMany({ where: { tenantId, kind: 'run', id: { in: [...ids] } }, select: RUN });
    return new Map(rows.map((row) => [row.id, { ...row, kind: 'run' as const }]));
  }

  /**
   * Up to `limit` runs whose usage is not recorded and whose next look is due, oldest first, each leased
   * for `leaseMs` (its next look moved that far ahead) in the same statement. Rows another replica is
   * leasing at that moment are skipped, not waited for, so replicas share the runs out between them.
   */
  async leaseUnrecordedRuns(limit: number, leaseMs: number): Promise<RunRecord[]> {
    const rows = await this.prisma.$queryRaw<RawRun[]>`
      UPDATE assistant_objects AS o
      SET sweep_at = (now() AT TIME ZONE 'UTC') + ${leaseMs}::float8 * interval '1 millisecond'
      FROM (
        SELECT id FROM assistant_objects
        WHERE kind = 'run' AND usage_recorded_at IS NULL AND (sweep_at IS NULL OR sweep_at <= (now() AT TIME ZONE 'UTC'))
        ORDER BY created_at, id
        LIMIT ${limit}::int
        FOR UPDATE SKIP LOCKED
      ) AS due
      WHERE o.id = due.id
      RETURNING o.id, o.tenant_id AS "tenantId", o.model_id AS "modelId", o.channel_id AS "channelId", o.provider_id AS "providerId",
        o.created_at AS "createdAt", o.thread_id AS "threadId", o.request_id AS "requestId", o.key_id AS "keyId", o.hold,
        o.usage_recorded_at AS "usageRecordedAt"`;
    return rows
      .map((row) => ({
        ...row,
        kind: 'run' as const,
        createdAt: new Date(row.createdAt),
        usageRecordedAt: row.usageRecordedAt === null ? null : new Date(row.usageRecordedAt),
      }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }

  /** Moves the next look at a run whose usage is still not recorded (a run not ended yet, an upstream backing off). */
  async deferRun(id: string, at: Date): Promise<void> {
    await this.prisma.assistantObject.updateMany({ where: { id, kind: 'run', usageRecordedAt: null }, data: { sweepAt: at } });
  }

  /** Moves an object to another home (an assistant given another model) and keeps what the upstream answered. */
  async update(id: string, home: ObjectHome | null, snapshot: Record<string, unknown> | null): Promise<void> {
    await this.prisma.assistantObject.update({
      where: { id },
      data: { ...(home ?? {}), ...(snapshot ? { snapshot: json(snapshot) } : {}) },
    });
  }

  /** Forgets an object; what its instructions or messages took goes back to the tenant's storage quota. */
  async remove(id: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const rows = await tx.assistantObject.findMany({ where: { id }, select: { tenantId: true, storedBytes: true } });
      await tx.assistantObject.deleteMany({ where: { id } });
      for (const row of rows) await tenantStorage.release(tx, row.tenantId, row.storedBytes);
    });
  }

  /** The guarded move that lets exactly one caller record a run's usage: true for the caller that won. */
  async claimUsage(id: string): Promise<boolean> {
    const { count } = await this.prisma.assistantObject.updateMany({
      where: { id, kind: 'run', usageRecordedAt: null },
      data: { usageRecordedAt: new Date() },
    });
    return count === 1;
  }

  /**
   * One page of the tenant's assistants as last returned by their upstreams, newest first unless
   * `order` is asc; `after` / `before` are assistant ids (OpenAI's cursor paging).
   */
  async listAssistants(tenantId: string, query: AssistantsListQuery): Promise<AssistantPage> {
    const limit = query.limit ?? 20;
    const desc = (query.order ?? 'desc') === 'desc';
    const where: Prisma.AssistantObjectWhereInput = { tenantId, kind: 'assistant' };
    const cursor = query.after ?? query.before;
    if (cursor) {
      const at = await this.prisma.assistantObject.findFirst({ where: { id: cursor, tenantId, kind: 'assistant' }, select: { createdAt: true } });
      if (!at) return { data: [], hasMore: false };
      // `after` continues in the listing's order; `before` goes back against it.
      const later = (query.after !== undefined) !== desc;
      where.OR = later
        ? [{ createdAt: { gt: at.createdAt } }, { createdAt: at.createdAt, id: { gt: cursor } }]
        : [{ createdAt: { lt: at.createdAt } }, { createdAt: at.createdAt, id: { lt: cursor } }];
    }
    const direction = (query.after === undefined && query.before !== undefined) !== desc ? 'desc' : 'asc';
    const rows = await this.prisma.assistantObject.findMany({
      where,
      orderBy: [{ createdAt: direction }, { id: direction }],
      take: limit + 1,
      select: { snapshot: true },
    });
    const page = rows.slice(0, limit).map((row) => (row.snapshot ?? {}) as Record<string, unknown>);
    // A `before` page was read backwards: it is shown in the listing's order.
    if (query.after === undefined && query.before !== undefined) page.reverse();
    return { data: page, hasMore: rows.length > limit };
  }
}
