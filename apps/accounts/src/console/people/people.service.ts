import {
  GatewayError,
  passwordProblem,
  type AcceptInviteRequest,
  type ConsoleInviteInfo,
  type ConsoleInviteIssued,
  type ConsoleSessionIssued,
  type ConsoleUserView,
  SignInMessage,
} from '@gateway/contracts';
import type { ConsoleRole } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { TenantsService } from '../../tenants/tenants.service';
import { isUniqueViolation } from '../../prisma/prisma-errors';
import { CONSOLE_ACCOUNTS_ENV, type ConsoleAccountsEnv } from '../console.env';
import { lockoutSeconds } from '../lockout';
import { newOpaqueToken, tokenHash } from '../opaque-token';
import { PasswordHasher } from '../password-hasher';
import { SessionsService } from '../sessions/sessions.service';
import { PeopleRepository, type UserRecord } from './people.repository';

const WRONG_CREDENTIALS = 'The email or the password is wrong.';
const INVITE_GONE = 'This invite link is unknown, already used or expired: ask your tenant owner or operator for a new one.';

export function toUserView(user: UserRecord, now = new Date()): ConsoleUserView {
  return {
    id: user.id,
    tenant: user.tenant.slug,
    email: user.email,
    role: user.role,
    hasPassword: user.passwordHash !== null,
    sso: user.oidcSubject !== null,
    lockedUntil: user.lockedUntil && user.lockedUntil > now ? user.lockedUntil.toISOString() : null,
    createdAt: user.createdAt.toISOString(),
  };
}

function lockedError(until: Date, now: Date): GatewayError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new GatewayError('rate_limited', `Too many wrong passwords: this account is locked for ${seconds} s more. Try again then.`, 'password', null, seconds);
}

/** People of the console: invites, setting a password from one, signing in with it, and the lockout after failures. */
@Injectable()
export class PeopleService {
  constructor(
    @Inject(PeopleRepository) private readonly people: PeopleRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(SessionsService) private readonly sessions: SessionsService,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    @Inject(CONSOLE_ACCOUNTS_ENV) private readonly env: ConsoleAccountsEnv,
  ) {}

  /** Issues a one-time link for `email` to join `tenant` as `role` (creating the account, without a password, if new). */
  async invite(request: { tenant: string; email: string; role: ConsoleRole; ttlHours: number }): Promise<ConsoleInviteIssued> {
    const tenant = await this.tenants.requireBySlug(request.tenant);
    let user = await this.people.findByEmail(request.email);
    if (user && user.tenantId !== tenant.id) throw GatewayError.invalid(`${request.email} already belongs to another tenant's console`, 'email');
    if (!user) {
      try {
        user = await this.people.createUser({ tenantId: tenant.id, email: request.email, role: request.role });
      } catch (error) {
        if (isUniqueViolation(error)) throw GatewayError.invalid(`${request.email} was invited at the same moment; try again`, 'email');
        throw error;
      }
    }
    const token = newOpaqueToken();
    const expiresAt = new Date(Date.now() + request.ttlHours * 3_600_000);
    const invite = await this.people.replaceInvites(user.id, { role: request.role, tokenHash: tokenHash(token), expiresAt });
    return { id: invite.id, tenant: tenant.slug, email: user.email, role: request.role, token, expiresAt: expiresAt.toISOString() };
  }

  async inviteInfo(token: string): Promise<ConsoleInviteInfo> {
    const invite = await this.people.findOpenInvite(tokenHash(token));
    if (!invite) throw GatewayError.notFound(INVITE_GONE, 'token');
    return { email: invite.user.email, tenant: invite.user.tenant.slug, role: invite.role, expiresAt: invite.expiresAt.toISOString() };
  }

  /** Sets the password an invite asked for; every session the person had ends (a forgotten password's reset). */
  async acceptInvite(request: AcceptInviteRequest): Promise<{ email: string; tenant: string }> {
    const invite = await this.people.findOpenInvite(tokenHash(request.token));
    if (!invite) throw GatewayError.notFound(INVITE_GONE, 'token');
    const problem = passwordProblem(request.password, invite.user.email);
    if (problem) throw GatewayError.invalid(problem, 'password');
    const hash = await this.hasher.hash(request.password);
    if (!(await this.people.acceptInvite(invite.id, invite.userId, invite.role, hash))) throw GatewayError.notFound(INVITE_GONE, 'token');
    await this.sessions.endAllOf(invite.userId);
    return { email: invite.user.email, tenant: invite.user.tenant.slug };
  }

  async list(tenantSlug: string): Promise<{ data: ConsoleUserView[] }> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    return { data: (await this.people.listByTenant(tenant.id)).map((user) => toUserView(user)) };
  }

  /**
   * Email and password to a new session. A locked account is refused before its password is checked; a
   * wrong password counts toward the lock; an unknown email costs the same time as a wrong password.
   */
  async signIn(request: z.output<typeof SignInMessage>): Promise<ConsoleSessionIssued> {
    const now = new Date();
    const user = await this.people.findByEmail(request.email);
    if (!user || user.passwordHash === null) {
      await this.hasher.verifyNothing(request.password);
      throw new GatewayError('authentication_failed', WRONG_CREDENTIALS, 'password');
    }
    if (user.lockedUntil && user.lockedUntil > now) throw lockedError(user.lockedUntil, now);
    if (!(await this.hasher.verify(user.passwordHash, request.password))) {
      const failures = await this.people.countFailure(user.id);
      const seconds = lockoutSeconds(failures, {
        threshold: this.env.CONSOLE_LOCKOUT_THRESHOLD,
        baseSeconds: this.env.CONSOLE_LOCKOUT_BASE_SECONDS,
        maxSeconds: this.env.CONSOLE_LOCKOUT_MAX_SECONDS,
      });
      if (seconds === 0) throw new GatewayError('authentication_failed', WRONG_CREDENTIALS, 'password');
      const until = new Date(now.getTime() + seconds * 1000);
      await this.people.lockUntil(user.id, until);
      throw lockedError(until, now);
    }
    if (user.failedSignIns > 0 || user.lockedUntil) await this.people.clearFailures(user.id);
    return this.sessions.issue(user, request.client, request.previousTokenHash);
  }
}
