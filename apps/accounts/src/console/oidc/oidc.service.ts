import { GatewayError, type ClientInfo, type ConsoleSessionIssued, type OidcConfigView } from '@gateway/contracts';
import type { ConsoleRole } from '@gateway/db';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { isUniqueViolation } from '../../prisma/prisma-errors';
import { TenantsService } from '../../tenants/tenants.service';
import { CONSOLE_ACCOUNTS_ENV, type ConsoleAccountsEnv } from '../console-env';
import { PeopleRepository, type UserRecord } from '../people/people.repository';
import { SessionsService } from '../sessions/sessions.service';
import { OidcClient, type ProviderSettings, type VerifiedIdentity } from './oidc-client';
import { OidcRepository } from './oidc.repository';

/** How long a sign-in may sit at the provider before its callback is refused. */
const STATE_TTL_MS = 10 * 60_000;

/**
 * Single sign-on per tenant: the operator sets the provider; a person is sent there and back, and the
 * account the provider vouches for (linked by issuer and subject, first matched by verified email) gets
 * a session. Unknown people get one only when the tenant names a default role for them.
 */
@Injectable()
export class OidcService {
  private readonly logger = new Logger('console-oidc');

  constructor(
    @Inject(OidcRepository) private readonly oidc: OidcRepository,
    @Inject(OidcClient) private readonly client: OidcClient,
    @Inject(PeopleRepository) private readonly people: PeopleRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(SessionsService) private readonly sessions: SessionsService,
    @Inject(CONSOLE_ACCOUNTS_ENV) private readonly env: ConsoleAccountsEnv,
  ) {}

  async configure(request: {
    tenant: string;
    issuer: string;
    clientId: string;
    clientSecret: string;
    defaultRole: ConsoleRole | null;
  }): Promise<OidcConfigView> {
    const tenant = await this.tenants.requireBySlug(request.tenant);
    if (new URL(request.issuer).protocol !== 'https:' && !this.env.CONSOLE_OIDC_ALLOW_HTTP) {
      throw GatewayError.invalid('the issuer must be an https:// URL (CONSOLE_OIDC_ALLOW_HTTP=true allows http for a local provider)', 'issuer');
    }
    const saved = await this.oidc.upsertConfig(tenant.id, {
      issuer: request.issuer,
      clientId: request.clientId,
      clientSecret: request.clientSecret,
      defaultRole: request.defaultRole,
    });
    return { tenant: tenant.slug, issuer: saved.issuer, clientId: saved.clientId, defaultRole: saved.defaultRole };
  }

  async show(tenantSlug: string): Promise<OidcConfigView> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    const config = await this.oidc.findConfig(tenant.id);
    if (!config) throw GatewayError.notFound(`tenant "${tenant.slug}" has no single sign-on`, 'tenant');
    return { tenant: tenant.slug, issuer: config.issuer, clientId: config.clientId, defaultRole: config.defaultRole };
  }

  async begin(tenantSlug: string, redirectUri: string): Promise<{ authorizationUrl: string; state: string }> {
    const { tenantId, settings } = await this.settingsOf(tenantSlug);
    const started = await this.reachProvider(() => this.client.authorizationUrl(settings, redirectUri));
    await this.oidc.saveState({
      state: started.state,
      tenantId,
      nonce: started.nonce,
      codeVerifier: started.codeVerifier,
      redirectUri,
      expiresAt: new Date(Date.now() + STATE_TTL_MS),
    });
    return { authorizationUrl: started.url, state: started.state };
  }

  async complete(request: { state: string; callbackUrl: string; client: ClientInfo; previousTokenHash: string | null }): Promise<ConsoleSessionIssued> {
    const pending = await this.oidc.takeState(request.state);
    if (!pending || pending.expiresAt < new Date()) throw GatewayError.invalid('This sign-in expired or was already used: start it again.', 'state');
    const callback = new URL(request.callbackUrl);
    if (`${callback.origin}${callback.pathname}` !== pending.redirectUri)
      throw GatewayError.invalid('The sign-in came back to another address than it left from.', 'state');
    const tenant = await this.tenants.requireById(pending.tenantId);
    const { settings } = await this.settingsOf(tenant.slug);
    const identity = await this.reachProvider(() =>
      this.client.complete(settings, callback, { state: pending.state, nonce: pending.nonce, codeVerifier: pending.codeVerifier }),
    );
    const user = await this.personFor(tenant.id, tenant.slug, identity);
    return this.sessions.issue(user, request.client, request.previousTokenHash);
  }

  private async personFor(tenantId: string, tenantSlug: string, identity: VerifiedIdentity): Promise<UserRecord> {
    const linked = await this.people.findByOidcSubject(identity.issuer, identity.subject);
    if (linked) {
      if (linked.tenantId !== tenantId) throw new GatewayError('permission_denied', `This account belongs to another tenant's console than ${tenantSlug}.`);
      return linked;
    }
    if (identity.email === null || !identity.emailVerified) {
      throw new GatewayError('permission_denied', 'The identity provider did not vouch for an email address: ask it to share a verified email.');
    }
    const byEmail = await this.people.findByEmail(identity.email);
    if (byEmail) {
      if (byEmail.tenantId !== tenantId)
        throw new GatewayError('permission_denied', `${identity.email} belongs to another tenant's console than ${tenantSlug}.`);
      return this.people.linkOidcSubject(byEmail.id, identity.issuer, identity.subject);
    }
    const config = await this.oidc.findConfig(tenantId);
    if (!config?.defaultRole) {
      throw new GatewayError('permission_denied', `${identity.email} has no console account in ${tenantSlug}: ask a tenant owner or operator for an invite.`);
    }
    try {
      return await this.people.createUser({
        tenantId,
        email: identity.email,
        role: config.defaultRole,
        oidcIssuer: identity.issuer,
        oidcSubject: identity.subject,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw GatewayError.invalid('This account was created at the same moment: sign in again.', 'state');
      throw error;
    }
  }

  /** An unknown tenant and one without single sign-on are refused alike: neither tells which slugs exist. */
  private async settingsOf(tenantSlug: string): Promise<{ tenantId: string; settings: ProviderSettings }> {
    const tenant = await this.tenants.findBySlug(tenantSlug);
    const config = tenant ? await this.oidc.findConfig(tenant.id) : null;
    if (!tenant || !config) throw GatewayError.notFound(`tenant "${tenantSlug}" has no single sign-on: sign in with your email and password`, 'tenant');
    return {
      tenantId: tenant.id,
      settings: { issuer: config.issuer, clientId: config.clientId, clientSecret: config.clientSecret, allowHttp: this.env.CONSOLE_OIDC_ALLOW_HTTP },
    };
  }

  /** A provider that fails or refuses is the provider's problem, told as such; the details go to the log. */
  private async reachProvider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      this.logger.warn(`single sign-on failed: ${(error as Error).message}`);
      throw new GatewayError('upstream_error', `The identity provider refused the sign-in: ${(error as Error).message}`, null, 502);
    }
  }
}
