// Owns account alerts: a tenant's endpoint and thresholds, and firing budget, balance and quota alerts
// after the ledger consumer writes each batch, as signed webhooks through the shared outbox.
import { destinationSettingsOf, WebhooksModule, type WebhooksEnv } from '@gateway/webhooks';
import { Module, type DynamicModule } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { AlertEvaluator } from './alert-evaluator';
import { AlertPublisher } from './alert-publisher';
import { AlertTrigger } from './alert-trigger';
import { AlertsHandler } from './alerts.handler';
import { AlertsRepository } from './alerts.repository';
import { ALERT_DESTINATIONS, AlertsService } from './alerts.service';

export interface AlertsOptions {
  webhooks: WebhooksEnv;
  databaseUrl: string;
  natsPrefix: string;
  publicBaseUrl?: string;
  metricsPort?: number;
}

/**
 * Global, so the ledger consumer and the balance can report to the trigger. Accounts only publishes:
 * the webhook workers (music's worker role) deliver, and music answers the webhook admin subjects.
 */
@Module({})
export class AlertsModule {
  static forRoot(options: AlertsOptions): DynamicModule {
    const { webhooks, publicBaseUrl, metricsPort } = options;
    return {
      module: AlertsModule,
      global: true,
      imports: [
        TenantsModule,
        WebhooksModule.forRoot({
          env: webhooks,
          databaseUrl: options.databaseUrl,
          natsPrefix: options.natsPrefix,
          worker: false,
          serveAdmin: false,
          publicBaseUrl,
          metricsPort,
        }),
      ],
      controllers: [AlertsHandler],
      providers: [
        { provide: ALERT_DESTINATIONS, useValue: destinationSettingsOf({ ...webhooks, PUBLIC_BASE_URL: publicBaseUrl, METRICS_PORT: metricsPort }) },
        AlertsRepository,
        AlertPublisher,
        AlertEvaluator,
        AlertTrigger,
        AlertsService,
      ],
      exports: [AlertTrigger],
    };
  }
}
