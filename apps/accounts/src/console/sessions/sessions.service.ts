import {
  ClientInfo,
  GatewayError,
  type ConsoleSessionContext,
  type ConsoleSessionIssued,
  type ConsoleSessionView,
  type SessionRevokeRequest,
} from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { InvalidationPublisher } from '../../events/invalidation.publisher';
import { TenantsService } from '../../tenants/tenants.service';
import { CONSOLE_ACCOUNTS_ENV, type ConsoleAccountsEnv } from '../console-env';
import { newOpaqueToken, tokenHash } from '../opaque-token';
import { SessionsRepository, type SessionRecord } from './sessions.repository';

/** The person a tenant session is for. */
export interface SessionUser {
  id: string;
}

function toContext(session: SessionRecord): ConsoleSessionContext {
  const user = session.user;
  return {
    sessionId: session.id,
    kind: session.kind === 'operator' ? 'operator' : 'tenant',
    userId: user?.id ?? null,
    email: user?.email ?? null,
    role: user?.role ?? null,
    tenantId: user?.tenant.id ?? null,
    tenantSlug: user?.tenant.slug ?? null,
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt.toISOString(),
  };
}

function toView(session: SessionRecord): ConsoleSessionView {
  return {
    id: session.id,
    kind: session.kind === 'operator' ? 'operator' : 'tenant',
    tenant: session.user?.tenant.slug ?? null,
    email: session.user?.email ?? null,
    ip: session.ip,
    userAgent: session.userAgent,
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
  };
}

/**
 * Console sessions: issued at sign-in (the token only in the cookie, its hash here), resolved by the
 * edges, ended by signing out or by an operator. Every end is broadcast, so every edge drops it at once.
 */
@Injectable()
export class SessionsService {
  constructor(
    @Inject(SessionsRepository) private readonly sessions: SessionsRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(InvalidationPublisher) private readonly invalidation: InvalidationPublisher,
    @Inject(CONSOLE_ACCOUNTS_ENV) private readonly env: ConsoleAccountsEnv,
  ) {}

  /** A fresh session for a person (or the operator, with `user` null); the one the browser held before ends. */
  async issue(user: SessionUser | null, client: ClientInfo, previousTokenHash: string | null): Promise<ConsoleSessionIssued> {
    if (previousTokenHash !== null) await this.end({ tokenHash: previousTokenHash });
    const token = newOpaqueToken();
    const info = ClientInfo.parse(client);
    const session = await this.sessions.create({
      kind: user === null ? 'operator' : 'tenant',
      userId: user?.id ?? null,
      tokenHash: tokenHash(token),
      csrfToken: newOpaqueToken(),
      ip: info.ip,
      userAgent: info.userAgent,
      expiresAt: new Date(Date.now() + this.env.CONSOLE_SESSION_HOURS * 3_600_000),
    });
    void this.sessions.removeStale().catch(() => undefined);
    return { token, session: toContext(session) };
  }

  async resolve(hash: string, now = new Date()): Promise<ConsoleSessionContext | null> {
    const session = await this.sessions.findByTokenHash(hash);
    if (!session || session.revokedAt !== null || session.expiresAt.getTime() <= now.getTime()) return null;
    if (session.kind === 'tenant' && session.user === null) return null;
    return toContext(session);
  }

  /** Signing out: the session ends whoever asks, as only its cookie's holder knows the hash. */
  async signOut(hash: string): Promise<{ revoked: number }> {
    return { revoked: await this.end({ tokenHash: hash }) };
  }

  /** Ends every live session of a person: after their password changes, or at an operator's word. */
  async endAllOf(userId: string): Promise<number> {
    return this.end({ userId });
  }

  async revoke(request: SessionRevokeRequest): Promise<{ revoked: number }> {
    if (request.id !== undefined) return { revoked: await this.end({ id: request.id }) };
    const tenant = await this.tenants.requireBySlug(request.tenant!);
    return { revoked: await this.end({ user: { tenantId: tenant.id, ...(request.email ? { email: request.email } : {}) } }) };
  }

  async list(filter: { tenant?: string; email?: string }): Promise<{ data: ConsoleSessionView[] }> {
    if (filter.email !== undefined && filter.tenant === undefined) throw GatewayError.invalid('an email needs its tenant', 'tenant');
    const tenant = filter.tenant === undefined ? null : await this.tenants.requireBySlug(filter.tenant);
    const where = tenant ? { user: { tenantId: tenant.id, ...(filter.email ? { email: filter.email } : {}) } } : {};
    return { data: (await this.sessions.findLive(where)).map(toView) };
  }

  private async end(where: Parameters<SessionsRepository['revoke']>[0]): Promise<number> {
    const hashes = await this.sessions.revoke(where);
    if (hashes.length > 0) this.invalidation.publish({ sessions: hashes });
    return hashes.length;
  }
}
