import { Prisma, PrismaClient, type ConsoleRole } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

/** Tenants' single sign-on settings and the sign-ins in progress. */
@Injectable()
export class OidcRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  upsertConfig(tenantId: string, config: { issuer: string; clientId: string; clientSecret: string; defaultRole: ConsoleRole | null }) {
    return this.prisma.consoleOidcConfig.upsert({ where: { tenantId }, create: { tenantId, ...config }, update: config });
  }

  findConfig(tenantId: string) {
    return this.prisma.consoleOidcConfig.findUnique({ where: { tenantId } });
  }

  async saveState(state: { state: string; tenantId: string; nonce: string; codeVerifier: string; redirectUri: string; expiresAt: Date }) {
    await this.prisma.consoleOidcState.deleteMany({ where: { expiresAt: { lt: new Date() } } });
    return this.prisma.consoleOidcState.create({ data: state });
  }

  /** Takes a sign-in in progress once: a replayed callback finds nothing. */
  takeState(state: string) {
    return this.prisma.consoleOidcState.delete({ where: { state } }).catch((error: unknown) => {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025') return null;
      throw error;
    });
  }
}
