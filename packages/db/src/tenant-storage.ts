import type { Prisma, PrismaClient } from './generated/prisma/client';

type Db = PrismaClient | Prisma.TransactionClient;

/**
 * A tenant's stored bytes (uploaded files, assistants' instructions, threads' messages) against its quota,
 * one counter row per tenant. Callers move it in the same transaction as the rows it counts, so a row and
 * its bytes are never counted apart.
 */
export const tenantStorage = {
  /**
   * Adds `bytes` to the tenant's total when the total stays within `quota`, in one statement (concurrent
   * claims serialize on the tenant's row). False, and nothing moved, when it would not.
   */
  async claim(db: Db, tenantId: string, bytes: bigint, quota: bigint): Promise<boolean> {
    if (bytes <= 0n) return true;
    const rows = await db.$queryRaw<Array<{ bytes: bigint }>>`
      INSERT INTO tenant_storage (tenant_id, bytes, updated_at)
      SELECT ${tenantId}::uuid, ${bytes}::bigint, now() WHERE ${bytes}::bigint <= ${quota}::bigint
      ON CONFLICT (tenant_id) DO UPDATE SET bytes = tenant_storage.bytes + EXCLUDED.bytes, updated_at = now()
      WHERE tenant_storage.bytes + EXCLUDED.bytes <= ${quota}::bigint
      RETURNING bytes`;
    return rows.length === 1;
  },

  /** Gives `bytes` back (a file deleted, an object gone); the total never goes below zero. */
  async release(db: Db, tenantId: string, bytes: bigint): Promise<void> {
    if (bytes <= 0n) return;
    await db.$executeRaw`
      UPDATE tenant_storage SET bytes = GREATEST(bytes - ${bytes}::bigint, 0), updated_at = now() WHERE tenant_id = ${tenantId}::uuid`;
  },

  async used(db: Db, tenantId: string): Promise<bigint> {
    const rows = await db.$queryRaw<Array<{ bytes: bigint }>>`SELECT bytes FROM tenant_storage WHERE tenant_id = ${tenantId}::uuid`;
    return rows[0]?.bytes ?? 0n;
  },
};
