import { createSqlPool, PrismaClient, type SqlPool } from '@gateway/db';
import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { NatsBus, type QueueFactory } from '@gateway/platform';
import { WebhookAdminHandler } from './admin/webhook-admin.handler';
import { WebhookConsoleHandler } from './admin/webhook-console.handler';
import { WebhookDeliveryProcessor } from './delivery/webhook-delivery.processor';
import { WebhookDeliveryService } from './delivery/webhook-delivery.service';
import { WebhookDeliverySweeper } from './delivery/webhook-delivery.sweeper';
import { DeliverySlots } from './delivery/delivery-slots';
import { WebhookSender } from './delivery/webhook-sender';
import { WebhookOutbox } from './outbox/webhook-outbox';
import { createWebhookQueues, WEBHOOK_QUEUE } from './queue/webhook-queue';
import { WebhookSecretService } from './secrets/webhook-secret.service';
import { WebhookRepository } from './store/webhook.repository';
import { destinationSettingsOf, type WebhooksEnv } from './webhooks-env';

const WEBHOOK_QUEUES = Symbol('WEBHOOK_QUEUES');
const WEBHOOKS_OPTIONS = Symbol('WEBHOOKS_OPTIONS');
const WEBHOOK_SQL_POOL = Symbol('WEBHOOK_SQL_POOL');

export interface WebhooksModuleOptions {
  env: WebhooksEnv;
  /** The host's public origin and metrics port: listeners of the gateway, never webhook destinations on this machine. */
  publicBaseUrl?: string;
  metricsPort?: number;
  /** The host's database: the delivery path keeps a pool of its own on it (WEBHOOK_DB_POOL_SIZE). */
  databaseUrl: string;
  natsPrefix: string;
  /** Run the delivery workers in this process (the worker role). */
  worker: boolean;
  /**
   * Answer the operator's and the console's webhook subjects (secrets, deliveries). One service owns them
   * (music); another that only publishes events (accounts' alerts) leaves them out, or both would answer.
   */
  serveAdmin?: boolean;
}

/**
 * Outbound webhooks, one component for every service that calls tenants back: the outbox a service
 * publishes events to, the delivery workers, per-tenant secrets and the operator's subjects. Needs a
 * global PrismaClient from its host; the hot path runs on a pg pool of its own.
 */
@Module({})
export class WebhooksModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly processor: WebhookDeliveryProcessor,
    private readonly sweeper: WebhookDeliverySweeper,
    private readonly sender: WebhookSender,
    @Inject(WEBHOOKS_OPTIONS) private readonly options: WebhooksModuleOptions,
    @Inject(WEBHOOK_QUEUES) private readonly queues: QueueFactory,
    @Inject(WEBHOOK_SQL_POOL) private readonly pool: SqlPool,
  ) {}

  static forRoot(options: WebhooksModuleOptions): DynamicModule {
    const { env } = options;
    return {
      module: WebhooksModule,
      controllers: options.serveAdmin === false ? [] : [WebhookAdminHandler, WebhookConsoleHandler],
      providers: [
        { provide: WEBHOOKS_OPTIONS, useValue: options },
        {
          provide: WEBHOOK_SQL_POOL,
          useFactory: () => {
            const logger = new Logger('webhooks');
            return createSqlPool(options.databaseUrl, env.WEBHOOK_DB_POOL_SIZE, (error) => logger.warn(`an idle database connection ended: ${error.message}`));
          },
        },
        {
          provide: WebhookRepository,
          inject: [PrismaClient, WEBHOOK_SQL_POOL],
          useFactory: (prisma: PrismaClient, pool: SqlPool) => new WebhookRepository(prisma, pool),
        },
        {
          provide: WebhookSecretService,
          inject: [WebhookRepository, NatsBus],
          useFactory: (r: WebhookRepository, bus: NatsBus) => new WebhookSecretService(r, env.WEBHOOK_SECRET_GRACE_SECONDS, bus),
        },
        {
          provide: WebhookSender,
          useFactory: () =>
            new WebhookSender(
              destinationSettingsOf({ ...env, PUBLIC_BASE_URL: options.publicBaseUrl, METRICS_PORT: options.metricsPort }),
              env.WEBHOOK_TIMEOUT_MS,
              env.WEBHOOK_CONCURRENCY,
            ),
        },
        { provide: WEBHOOK_QUEUES, useFactory: () => createWebhookQueues(env, options.natsPrefix) },
        {
          provide: WebhookDeliveryService,
          inject: [WebhookRepository, WebhookSecretService, WebhookSender, WEBHOOK_QUEUES],
          useFactory: (r: WebhookRepository, s: WebhookSecretService, sender: WebhookSender, queues: QueueFactory) =>
            new WebhookDeliveryService(
              r,
              s,
              sender,
              queues.queue(WEBHOOK_QUEUE),
              { baseMs: env.WEBHOOK_RETRY_BASE_MS, maxMs: env.WEBHOOK_RETRY_MAX_MS, maxAttempts: env.WEBHOOK_MAX_ATTEMPTS },
              new DeliverySlots(env.WEBHOOK_RECEIVER_CONCURRENCY, env.WEBHOOK_TENANT_CONCURRENCY),
              env.WEBHOOK_SLOT_WAIT_MS,
            ),
        },
        {
          provide: WebhookDeliveryProcessor,
          inject: [WebhookDeliveryService, WEBHOOK_QUEUES],
          useFactory: (d: WebhookDeliveryService, queues: QueueFactory) => new WebhookDeliveryProcessor(d, queues, env),
        },
        {
          provide: WebhookDeliverySweeper,
          inject: [WebhookDeliveryService],
          useFactory: (d: WebhookDeliveryService) => new WebhookDeliverySweeper(d, env.WEBHOOK_SWEEP_MS),
        },
        {
          provide: WebhookOutbox,
          inject: [WebhookRepository, WebhookDeliveryService],
          useFactory: (r: WebhookRepository, d: WebhookDeliveryService) => new WebhookOutbox(r, d),
        },
      ],
      exports: [WebhookOutbox],
    };
  }

  onApplicationBootstrap(): void {
    if (!this.options.worker) return;
    this.processor.start();
    this.sweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
    await this.queues.close();
    await this.sender.close();
    // Shutdown hooks may run more than once (a signal, then the close it starts); the pool ends once.
    if (!this.pool.ending && !this.pool.ended) await this.pool.end();
  }
}
