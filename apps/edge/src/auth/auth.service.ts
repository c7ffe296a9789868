import { GatewayError, type AuthScheme, type KeyContext } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { checkMsgcVersion, extractApiKey, rejectRepeatedKeyHeaders } from './auth-headers';
import { KeyResolverService, type KeyResolution } from './key-resolver.service';

type Headers = Record<string, string | string[] | undefined>;

/** What authentication reads of a request. */
export interface AuthInput {
  headers: Headers;
  /** Names and values alternating, as received: the only place a repeated header shows. */
  rawHeaders: readonly string[];
  clientAddress: string;
}

/** Authenticates a request under its route's scheme; throws authentication errors naming what to fix. */
@Injectable()
export class AuthService {
  private readonly failures: AuthFailureLimiter;

  constructor(
    private readonly keys: KeyResolverService,
    @Inject(EDGE_ENV) env: EdgeEnv,
  ) {
    this.failures = new AuthFailureLimiter(env.AUTH_FAILURES_PER_MINUTE);
  }

  async authenticate(scheme: AuthScheme, request: AuthInput): Promise<KeyContext> {
    rejectRepeatedKeyHeaders(request.rawHeaders);
    const key = extractApiKey(scheme, request.headers);
    const resolution = await this.resolve(key, request.clientAddress);
    switch (resolution.status) {
      case 'valid':
        if (scheme === 'msgc') checkMsgcVersion(request.headers);
        return resolution.context;
      case 'expired':
        this.failures.record(request.clientAddress);
        throw new GatewayError(
          'authentication_failed',
          resolution.by === 'key'
            ? `This API key expired at ${resolution.at}: its own expiry.`
            : `This API key has expired: its subscription ended at ${resolution.at}.`,
        );
      case 'unknown':
        this.failures.record(request.clientAddress);
        throw new GatewayError('authentication_failed', 'Invalid API key: it is unknown or has been revoked.');
    }
  }

  /** An address over its failure limit gets only keys already known valid, so its guesses cost no lookup. */
  private async resolve(key: string, clientAddress: string): Promise<KeyResolution> {
    const retryAfter = this.failures.retryAfterSeconds(clientAddress);
    if (retryAfter === null) return this.keys.resolve(key);
    const cached = this.keys.resolveCached(key);
    if (cached?.status === 'valid') return cached;
    throw new GatewayError('rate_limited', `Too many failed authentications from this address: retry in ${retryAfter} s.`, null, null, retryAfter);
  }
}
