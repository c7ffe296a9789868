import { pgJson, pgText, PrismaClient, type Prisma } from '@gateway/db';
import { Injectable } from '@nestjs/common';

/** Where a stored response came from; both null for a response answered through chat. */
export interface ResponseSource {
  upstreamId: string | null;
  channelId: string | null;
}

/** The only reader and writer of stored_responses. */
@Injectable()
export class ResponsesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The body is stored as jsonb, which holds no NUL and no lone surrogate: those are cleaned, as in usage rows. */
  async save(id: string, tenantId: string, body: Record<string, unknown>, source?: ResponseSource): Promise<void> {
    const stored = pgJson(body) as Prisma.InputJsonObject;
    await this.prisma.storedResponse.create({
      data: { id, tenantId, body: stored, upstreamId: pgText(source?.upstreamId ?? null), channelId: source?.channelId ?? null },
    });
  }

  /** Null when the id is unknown or belongs to another tenant: callers cannot tell the two apart. */
  async find(id: string, tenantId: string): Promise<Record<string, unknown> | null> {
    const row = await this.prisma.storedResponse.findFirst({ where: { id, tenantId }, select: { body: true } });
    return (row?.body as Record<string, unknown> | undefined) ?? null;
  }

  /** The source of the tenant's response `id`; null when there is no such response for this tenant. */
  async source(id: string, tenantId: string): Promise<ResponseSource | null> {
    return this.prisma.storedResponse.findFirst({ where: { id, tenantId }, select: { upstreamId: true, channelId: true } });
  }
}
