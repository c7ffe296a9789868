// The accounts service: tenants, keys, subscriptions, balance, the model catalog, declarative config and console people.
import { loadEnv } from '@gateway/platform';
import { WebhooksEnv } from '@gateway/webhooks';
import { Module, type DynamicModule } from '@nestjs/common';
import { AlertsModule, type AlertsOptions } from './alerts/alerts.module';
import { BalanceModule } from './balance/balance.module';
import { BillingModule } from './billing/billing.module';
import { BudgetsModule } from './budgets/budgets.module';
import { WalletModule } from './billing/wallet.module';
import { CatalogModule } from './catalog/catalog.module';
import { ConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { ConsoleProjectsModule } from './console/projects/console-projects.module';
import { CacheSettingsModule } from './cache/cache-settings.module';
import { EventsModule } from './events/events.module';
import { KeysModule } from './keys/keys.module';
import { LedgerModule } from './ledger/ledger.module';
import { MoneyModule } from './money/money.module';
import { PrismaModule } from './prisma/prisma.module';
import { QueuesModule } from './queues/queues.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { TenantsModule } from './tenants/tenants.module';
import { UsageModule } from './usage/usage.module';

export interface AccountsOptions {
  databaseUrl: string;
  natsPrefix?: string;
  /** How alerts are published; from the environment when absent. */
  alerts?: Omit<AlertsOptions, 'databaseUrl' | 'natsPrefix'>;
}

@Module({})
export class AccountsModule {
  static forRoot(options: AccountsOptions): DynamicModule {
    return {
      module: AccountsModule,
      imports: [
        PrismaModule.forUrl(options.databaseUrl),
        EventsModule,
        TenantsModule,
        KeysModule,
        BudgetsModule,
        CatalogModule,
        SubscriptionsModule,
        BalanceModule,
        ConfigModule,
        WalletModule,
        LedgerModule,
        BillingModule,
        UsageModule,
        ConsoleModule,
        ConsoleProjectsModule,
        MoneyModule,
        QueuesModule,
        CacheSettingsModule,
        AlertsModule.forRoot({
          databaseUrl: options.databaseUrl,
          natsPrefix: options.natsPrefix ?? '',
          ...(options.alerts ?? { webhooks: loadEnv(WebhooksEnv) }),
        }),
      ],
    };
  }
}
