import { pgTextFields, PrismaClient, tenantStorage, type Prisma } from '@gateway/db';
import { Injectable } from '@nestjs/common';

export interface FileRow {
  id: string;
  tenantId: string;
  filename: string;
  purpose: string;
  bytes: bigint;
  contentType: string;
  objectKey: string;
  status: string;
  createdAt: Date;
}

export interface FileListFilter {
  purpose?: string;
  limit: number;
  after?: string;
  order: 'asc' | 'desc';
}

/** Files the gateway writes itself (batch output and error files) do not count toward the tenant's storage quota. */
const UNCOUNTED_PURPOSES = new Set(['batch_output']);

/** The only reader and writer of the files table. Every read names the tenant: another tenant's id finds nothing. */
@Injectable()
export class FilesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Records an upload and counts its bytes toward the tenant's stored total, in one transaction; null,
   * and nothing recorded, when the total would exceed `quotaBytes`.
   */
  async create(row: Omit<FileRow, 'createdAt' | 'status'>, quotaBytes: bigint): Promise<FileRow | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!UNCOUNTED_PURPOSES.has(row.purpose) && !(await tenantStorage.claim(tx, row.tenantId, row.bytes, quotaBytes))) return null;
      // Text a client chose (file name, content type) is stored as Postgres can hold it: no NUL, no lone surrogate.
      return tx.storedFile.create({ data: pgTextFields(row) });
    });
  }

  /** Creates the row unless it exists: records written by a job that may run twice. */
  async upsert(row: Omit<FileRow, 'createdAt' | 'status'>): Promise<FileRow> {
    return this.prisma.storedFile.upsert({ where: { id: row.id }, create: pgTextFields(row), update: {} });
  }

  async find(tenantId: string, id: string): Promise<FileRow | null> {
    return this.prisma.storedFile.findFirst({ where: { id, tenantId } });
  }

  /** One more row than asked for, so the caller can tell whether there are more. */
  async list(tenantId: string, filter: FileListFilter): Promise<FileRow[]> {
    const where: Prisma.StoredFileWhereInput = { tenantId, ...(filter.purpose ? { purpose: filter.purpose } : {}) };
    const cursor = filter.after ? await this.find(tenantId, filter.after) : null;
    if (filter.after && !cursor) return [];
    const orderBy: Prisma.StoredFileOrderByWithRelationInput[] = [{ createdAt: filter.order }, { id: filter.order }];
    if (cursor) {
      const beyond = filter.order === 'desc' ? 'lt' : 'gt';
      where.OR = [{ createdAt: { [beyond]: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { [beyond]: cursor.id } }];
    }
    return this.prisma.storedFile.findMany({ where, orderBy, take: filter.limit + 1 });
  }

  /** The deleted row, or null when the tenant has no such file; its bytes go back to the tenant's storage quota. */
  async delete(tenantId: string, id: string): Promise<FileRow | null> {
    const row = await this.find(tenantId, id);
    if (!row) return null;
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.storedFile.deleteMany({ where: { id, tenantId } });
      if (count !== 1) return null;
      if (!UNCOUNTED_PURPOSES.has(row.purpose)) await tenantStorage.release(tx, tenantId, row.bytes);
      return row;
    });
  }
}
