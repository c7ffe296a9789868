import { GatewayError, type AuthScheme, type KeyContext } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { extractApiKey } from './auth-headers';
import { KeyResolverService } from './key-resolver.service';

type Headers = Record<string, string | string[] | undefined>;

/** Authenticates a request under its route's scheme; throws authentication errors naming what to fix. */
@Injectable()
export class AuthService {
  constructor(private readonly keys: KeyResolverService) {}

  async authenticate(scheme: AuthScheme, headers: Headers): Promise<KeyContext> {
    const key = extractApiKey(scheme, headers);
    const resolution = await this.keys.resolve(key);
    switch (resolution.status) {
      case 'valid':
        return resolution.context;
      case 'expired':
        throw new GatewayError('authentication_failed', 'This API key has expired: its subscription ended.');
      case 'unknown':
        throw new GatewayError('authentication_failed', 'Invalid API key: it is unknown or has been revoked.');
    }
  }
}
