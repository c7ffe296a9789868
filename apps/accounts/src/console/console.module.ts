// Owns the console's people: invites, passwords and lockout, sessions (tenant and operator), single sign-on;
// and the tenant console's usage views.
import { loadEnv } from '@gateway/platform';
import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { TenantsModule } from '../tenants/tenants.module';
import { CONSOLE_ACCOUNTS_ENV, ConsoleAccountsEnv } from './console.env';
import { OidcClient } from './oidc/oidc-client';
import { OidcHandler } from './oidc/oidc.handler';
import { OidcRepository } from './oidc/oidc.repository';
import { OidcService } from './oidc/oidc.service';
import { PasswordHasher } from './password-hasher';
import { PeopleHandler } from './people/people.handler';
import { PeopleRepository } from './people/people.repository';
import { PeopleService } from './people/people.service';
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
