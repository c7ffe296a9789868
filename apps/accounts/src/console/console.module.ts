// Owns the console's people: invites, passwords and lockout, sessions (tenant and operator), single sign-on.
import { loadEnv } from '@gateway/platform';
import { Module } from '@nestjs/common';
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

@Module({
  imports: [TenantsModule],
  controllers: [PeopleHandler, SessionsHandler, OidcHandler],
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
  ],
})
export class ConsoleModule {}
