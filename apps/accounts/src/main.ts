import { bootstrapService, loadEnvOrExit } from '@gateway/platform';
import { setPriority } from 'node:os';
import { AccountsEnv } from './accounts.env';
import { AccountsModule } from './accounts.module';

const env = loadEnvOrExit(AccountsEnv);
if (env.ACCOUNTS_NICE > 0) setPriority(env.ACCOUNTS_NICE);
void bootstrapService('accounts', AccountsModule.forRoot({ databaseUrl: env.DATABASE_URL }));
