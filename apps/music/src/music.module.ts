import { BillingClient, BillingClientModule, BillingEnv, TaskBilling, TaskUsagePublisher } from '@gateway/billing';
import { loadEnv, NatsBus } from '@gateway/platform';
import { ServiceInfraModule } from '@gateway/platform/infra';
import type { StorageEnv } from '@gateway/storage';
import { WebhooksModule } from '@gateway/webhooks';
import { Inject, Module, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { MusicAssetsService } from './assets/music-assets.service';
import { MUSIC_ENV, type MusicEnv } from './config/music-env';
import { MusicCallbackHandler } from './progress/music-callback.handler';
import { MusicCallbackService } from './progress/music-callback.service';
import { MusicPollProcessor } from './progress/music-poll.processor';
import { MusicPollScheduler } from './progress/music-poll.scheduler';
import { MusicProgressService } from './progress/music-progress.service';
import { MusicConsoleService } from './tasks/music-console.service';
import { MusicTaskHandler } from './tasks/music-task.handler';
import { MusicTaskRepository } from './tasks/music-task.repository';
import { MusicTaskService } from './tasks/music-task.service';
import { MusicUpstreamClient } from './upstream/music-upstream.client';

/**
 * The music service: task creation, queries and upstream callback intake (api role), the poller and
 * the tenant webhook deliveries (worker role); MUSIC_ROLE=all runs both in one process.
 */
@Module({})
export class MusicModule implements OnApplicationBootstrap {
  constructor(
    @Inject(MUSIC_ENV) private readonly env: MusicEnv,
    private readonly poller: MusicPollProcessor,
  ) {}

  static forRoot(env: MusicEnv, storage: StorageEnv): DynamicModule {
    return {
      module: MusicModule,
      imports: [
        ServiceInfraModule.forRoot({
          service: 'music',
          env: { token: MUSIC_ENV, value: env },
          databaseUrl: env.DATABASE_URL,
          sqlPoolSize: env.MUSIC_DB_POOL_SIZE,
          storage,
          queuesRedis: env,
          signedUrls: true,
          catalogTtlSeconds: env.CATALOG_TTL_SECONDS,
        }),
        BillingClientModule.forRoot(loadEnv(BillingEnv)),
        WebhooksModule.forRoot({
          env,
          databaseUrl: env.DATABASE_URL,
          natsPrefix: env.NATS_PREFIX,
          worker: env.MUSIC_ROLE !== 'api',
          publicBaseUrl: env.PUBLIC_BASE_URL,
          metricsPort: env.METRICS_PORT,
        }),
      ],
      // A worker answers no music subjects: the intake and the deliveries never share an event loop.
      controllers: env.MUSIC_ROLE === 'worker' ? [] : [MusicTaskHandler, MusicCallbackHandler],
      providers: [
        { provide: TaskBilling, inject: [BillingClient], useFactory: (client: BillingClient) => new TaskBilling(client) },
        { provide: TaskUsagePublisher, inject: [NatsBus], useFactory: (bus: NatsBus) => new TaskUsagePublisher(bus) },
        MusicTaskRepository,
        MusicAssetsService,
        MusicConsoleService,
        MusicUpstreamClient,
        MusicProgressService,
        MusicPollScheduler,
        MusicPollProcessor,
        MusicTaskService,
        MusicCallbackService,
      ],
    };
  }

  onApplicationBootstrap(): void {
    if (this.env.MUSIC_ROLE !== 'api') this.poller.start();
  }
}
