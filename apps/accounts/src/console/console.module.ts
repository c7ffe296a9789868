// Owns the console's people: invites, passwords and sign-in attempts (counted in Redis under the
// namespace's tag), sessions (tenant and operator), single sign-on; and the tenant console's usage views.
import { WalletKeys } from '@gateway/billing';
import { loadEnv } from '@gateway/platform';
import { Module } from '@nestjs/common';
import type Redis from 'ioredis';
import { WALLET_REDIS } from '../billing/wallet.module';
import { BillingModule } from '../billing/billing.module';
import { TenantsModule } from '../tenants/tenants.module';
import { CONSOLE_ACCOUNTS_ENV, ConsoleAccountsEnv } from './console-env';
import { OidcClient } from './oidc/oidc-client';
import { OidcHandler } from './oidc/oidc.handler';
import { OidcRepository } from './oidc/oidc.repository';
import { OidcService } from './oidc/oidc.service';
import { PasswordHasher } from './password-hasher';
import { PeopleHandler } from './people/people.handler';
import { PeopleRepository } from './people/people.repository';
import { PeopleService } from './people/people.service';
import { SignInAttempts } from './sign-in/sign-in-attempts';
import { SessionsHandler } from './sessions/sessions.handler';
import { SessionsRepository } from './sessions/sessions.repository';
import { SessionsService } from './sessions/sessions.service';
import { ConsoleUsageHandler } from './usage/console-usage.handler';
import { ConsoleUsageRepository } from './usage/console-usage.repository';
import { ConsoleUsageService } from './usage/console-usage.service';

@Module({
  imports: [TenantsModule, BillingModule],
  controllers: [PeopleHandler, SessionsHandler, OidcHandler, ConsoleUsageHandler],
  providers: [
    { provide: CONSOLE_ACCOUNTS_ENV, useFactory: () => loadEnv(ConsoleAccountsEnv) },
    {
      provide: SignInAttempts,
      inject: [WALLET_REDIS, WalletKeys, CONSOLE_ACCOUNTS_ENV],
      useFactory: (redis: Redis, keys: WalletKeys, env: ConsoleAccountsEnv) =>
        new SignInAttempts(redis, `${keys.tag}:signin`, {
          threshold: env.CONSOLE_LOCKOUT_THRESHOLD,
          baseSeconds: env.CONSOLE_LOCKOUT_BASE_SECONDS,
          maxSeconds: env.CONSOLE_LOCKOUT_MAX_SECONDS,
          perAddress: env.CONSOLE_SIGN_IN_PER_ADDRESS,
          addressWindowSeconds: env.CONSOLE_SIGN_IN_ADDRESS_WINDOW_SECONDS,
        }),
    },
    PasswordHasher,
    PeopleRepository,
    PeopleService,
    SessionsRepository,
    SessionsService,
    OidcRepository,
    OidcClient,
    OidcService,
    ConsoleUsageRepository,
    ConsoleUsageService,
  ],
})
export class ConsoleModule {}
