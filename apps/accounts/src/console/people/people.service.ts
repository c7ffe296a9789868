import {
  GatewayError,
  type AcceptInviteRequest,
  type ConsoleInviteInfo,
  type ConsoleInviteIssued,
  type ConsoleSessionIssued,
  type ConsoleUserView,
  SignInMessage,
} from '@gateway/contracts';
import { passwordProblem } from '@gateway/contracts/password';
import type { ConsoleRole } from '@gateway/db';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { z } from 'zod';
import { TenantsService } from '../../tenants/tenants.service';
import { isUniqueViolation } from '../../prisma/prisma-errors';
import { newOpaqueToken, tokenHash } from '../opaque-token';
import { PasswordHasher } from '../password-hasher';
import { SignInAttempts } from '../sign-in/sign-in-attempts';
import { SessionsService } from '../sessions/sessions.service';
import { PeopleRepository, type UserRecord } from './people.repository';

/** One answer for an unknown email, a wrong password and a locked email: none tells them apart. */
const WRONG_CREDENTIALS = 'The email or the password is wrong, or this email had too many wrong passwords: wait a few minutes and try again.';
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

function wrongCredentials(): GatewayError {
  return new GatewayError('authentication_failed', WRONG_CREDENTIALS, 'password');
}

/** People of the console: invites, setting a password from one, signing in with it, and the lockout after failures. */
@Injectable()
export class PeopleService {
  private readonly logger = new Logger(PeopleService.name);

  constructor(
    @Inject(PeopleRepository) private readonly people: PeopleRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(SessionsService) private readonly sessions: SessionsService,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    @Inject(SignInAttempts) private readonly attempts: SignInAttempts,
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
    const problem = passwordProblem(request.password, { email: invite.user.email, tenant: invite.user.tenant.slug });
    if (problem) throw GatewayError.invalid(problem, 'password');
    const hash = await this.hasher.hash(request.password);
    if (!(await this.people.acceptInvite(invite.id, invite.userId, invite.role, hash))) throw GatewayError.notFound(INVITE_GONE, 'token');
    await this.attempts.forgetEmail(invite.user.email);
    await this.sessions.endAllOf(invite.userId);
    return { email: invite.user.email, tenant: invite.user.tenant.slug };
  }

  async list(tenantSlug: string): Promise<{ data: ConsoleUserView[] }> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    return { data: (await this.people.listByTenant(tenant.id)).map((user) => toUserView(user)) };
  }

  /**
   * Email and password to a new session. The attempt is counted first (per email and per client address,
   * in Redis): an address past its allowance is refused at once, a locked email without its password being
   * checked. An unknown email, a wrong password and a locked email get one answer in the time of one check.
   */
  async signIn(request: z.output<typeof SignInMessage>): Promise<ConsoleSessionIssued> {
    const attempt = await this.attempts.reserve(request.email, request.client.ip);
    if (attempt.kind === 'address') {
      const wait = attempt.retryAfterSeconds;
      throw new GatewayError('rate_limited', `Too many sign-in attempts from this address: try again in ${wait} s.`, 'email', null, wait);
    }
    const user = await this.people.findByEmail(request.email);
    const lockedInStore = user?.lockedUntil != null && user.lockedUntil > new Date();
    if (attempt.kind === 'locked' || !user || user.passwordHash === null || lockedInStore) {
      await this.hasher.verifyNothing(request.password);
      throw wrongCredentials();
    }
    if (!(await this.hasher.verify(user.passwordHash, request.password))) {
      // The mirror operators read is written once the answer has left: a wrong password on an existing
      // account must take no longer than one on a missing account.
      const failure = { failures: attempt.failures, lockedUntil: attempt.lockedUntil };
      setTimeout(() => {
        this.people
          .recordFailure(user.id, failure.failures, failure.lockedUntil)
          .catch((error: Error) => this.logger.warn(`recording a failed sign-in: ${error.message}`));
      }, 0);
      throw wrongCredentials();
    }
    await this.attempts.succeed(request.email, request.client.ip);
    if (user.failedSignIns > 0 || user.lockedUntil) await this.people.clearFailures(user.id);
    return this.sessions.issue(user, request.client, request.previousTokenHash);
  }
}
