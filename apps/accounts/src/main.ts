import { bootstrapService, loadEnvOrExit } from '@gateway/platform';
import { AccountsEnv } from './accounts-env';
import { AccountsModule } from './accounts.module';
import { applyCpuPriority } from './cpu-priority';

const env = loadEnvOrExit(AccountsEnv);
applyCpuPriority(env, (line) => process.stderr.write(`${line}\n`));
void bootstrapService(
  'accounts',
  AccountsModule.forRoot({
    databaseUrl: env.DATABASE_URL,
    natsPrefix: env.NATS_PREFIX,
    alerts: { webhooks: env, publicBaseUrl: env.PUBLIC_BASE_URL, metricsPort: env.METRICS_PORT },
  }),
);
