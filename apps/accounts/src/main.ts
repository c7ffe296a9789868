import { bootstrapService, loadEnvOrExit } from '@gateway/platform';
import { setPriority } from 'node:os';
import { AccountsEnv } from './accounts.env';
import { AccountsModule } from './accounts.module';

const env = loadEnvOrExit(AccountsEnv);
if (env.ACCOUNTS_NICE > 0) {
  try {
    setPriority(env.ACCOUNTS_NICE);
  } catch (error) {
    process.stderr.write(`accounts: could not lower its CPU priority (ACCOUNTS_NICE): ${(error as Error).message}\n`);
  }
}
void bootstrapService('accounts', AccountsModule.forRoot({ databaseUrl: env.DATABASE_URL }));
