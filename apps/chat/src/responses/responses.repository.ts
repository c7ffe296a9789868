import { PrismaClient, type Prisma } from '@gateway/db';
import { Injectable } from '@nestjs/common';

/** The only reader and writer of stored_responses. */
@Injectable()
export class ResponsesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async save(id: string, tenantId: string, body: Record<string, unknown>): Promise<void> {
    await this.prisma.storedResponse.create({ data: { id, tenantId, body: body as Prisma.InputJsonObject } });
  }

  /** Null when the id is unknown or belongs to another tenant: callers cannot tell the two apart. */
  async find(id: string, tenantId: string): Promise<Record<string, unknown> | null> {
    const row = await this.prisma.storedResponse.findFirst({ where: { id, tenantId }, select: { body: true } });
    return (row?.body as Record<string, unknown> | undefined) ?? null;
  }
}
