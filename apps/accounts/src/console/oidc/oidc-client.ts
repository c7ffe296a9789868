import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type * as Oidc from 'openid-client';

/** openid-client ships ES modules only; Node 20 loads them through require, done on first use so specs that never sign in skip it. */
const loadClient = (): Promise<typeof Oidc> => import('openid-client');

const DISCOVERY_TTL_MS = 10 * 60_000;

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  allowHttp: boolean;
}

/** What a provider vouched for at the end of a sign-in. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/**
 * The OpenID Connect relying party (openid-client): discovery (cached per provider and client), the
 * authorization URL with PKCE, state and nonce, and the code exchange with the ID token checked.
 */
@Injectable()
export class OidcClient {
  private readonly discovered = new Map<string, { at: number; config: Promise<Oidc.Configuration> }>();

  async authorizationUrl(settings: ProviderSettings, redirectUri: string) {
    const client = await loadClient();
    const config = await this.configuration(settings);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.toString(), state, nonce, codeVerifier };
  }

  async complete(settings: ProviderSettings, callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }): Promise<VerifiedIdentity> {
    const client = await loadClient();
    const config = await this.configuration(settings);
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: expected.codeVerifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    let email = typeof claims.email === 'string' ? claims.email : null;
    let verified = claims.email_verified === true;
    if (email === null) {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = typeof info.email === 'string' ? info.email : null;
      verified = info.email_verified === true;
    }
    return { issuer: config.serverMetadata().issuer, subject: claims.sub, email: email?.trim().toLowerCase() ?? null, emailVerified: verified };
  }

  private async configuration(settings: ProviderSettings): Promise<Oidc.Configuration> {
    const id = createHash('sha256').update(JSON.stringify(settings)).digest('hex');
    const cached = this.discovered.get(id);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const client = await loadClient();
    const config = client.discovery(
      new URL(settings.issuer),
      settings.clientId,
      undefined,
      client.ClientSecretBasic(settings.clientSecret),
      settings.allowHttp ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    this.discovered.set(id, { at: Date.now(), config });
    config.catch(() => this.discovered.delete(id));
    return config;
  }
}
