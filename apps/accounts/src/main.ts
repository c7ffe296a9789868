import { bootstrapService, loadEnvOrExit } from '@gateway/platform';
import { AccountsEnv } from './accounts.env';
import { AccountsModule } from './accounts.module';

const env = loadEnvOrExit(AccountsEnv);
void bootstrapService('accounts', AccountsModule.forRoot({ databaseUrl: env.DATABASE_URL }));
