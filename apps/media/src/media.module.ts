import { BillingClient, BillingClientModule, BillingEnv, TaskBilling, TaskUsagePublisher } from '@gateway/billing';
import { loadEnv, NatsBus, QueueFactory, createRedis } from '@gateway/platform';
import { ServiceInfraModule } from '@gateway/platform/infra';
import { CallbackTokenSigner, type StorageEnv } from '@gateway/storage';
import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { MediaCallbackHandler } from './callbacks/media-callback.handler';
import { MediaCallbackService } from './callbacks/media-callback.service';
import { MEDIA_ENV, type MediaEnv } from './config/media-env';
import { MediaImageSyncService } from './create/image-sync.service';
import { MediaCreateService } from './create/media-create.service';
import { MediaQueryService } from './create/media-query.service';
import { MediaConsoleService } from './create/media-console.service';
import { MediaHandler } from './create/media.handler';
import { CompletionHistoryRepository, HISTORY_KEY_PREFIX, HISTORY_REDIS } from './schedule/completion-history.repository';
import { PollPlanner } from './schedule/poll-planner.service';
import { MediaTaskRepository } from './tasks/media-task.repository';
import { PollScheduler } from './tasks/poll-scheduler.service';
import { TaskEndWaiter } from './tasks/task-end-waiter.service';
import { TaskLifecycleService } from './tasks/task-lifecycle.service';
import { MediaUpstreamService } from './upstream/media-upstream.service';
import { ResultStoreService } from './upstream/result-store.service';
import { MediaPollService } from './worker/media-poll.service';
import { MediaSweepService } from './worker/media-sweep.service';
import { MediaWorkerProcessor } from './worker/media-worker.processor';

/**
 * Image and video tasks (oaic videos, dsc, nativemedia). MEDIA_ROLE picks the roles this process plays:
 * `api` answers NATS (validate, hold, submit, record), `worker` runs the BullMQ polls, ingestion and
 * sweeps, and scales by replica count; `all` (the default) does both.
 */
@Module({})
export class MediaModule {
  static forRoot(env: MediaEnv, storage: StorageEnv): DynamicModule {
    const api = env.MEDIA_ROLE !== 'worker';
    const worker = env.MEDIA_ROLE !== 'api';
    const shared: Provider[] = [
      MediaTaskRepository,
      MediaUpstreamService,
      ResultStoreService,
      PollScheduler,
      TaskLifecycleService,
      PollPlanner,
      CompletionHistoryRepository,
      { provide: HISTORY_REDIS, useFactory: () => createRedis(env, 'history', { enableAutoPipelining: true }) },
      { provide: HISTORY_KEY_PREFIX, inject: [QueueFactory], useFactory: (queues: QueueFactory) => queues.prefix },
      { provide: TaskBilling, inject: [BillingClient], useFactory: (client: BillingClient) => new TaskBilling(client) },
      { provide: TaskUsagePublisher, inject: [NatsBus], useFactory: (bus: NatsBus) => new TaskUsagePublisher(bus) },
    ];
    return {
      module: MediaModule,
      imports: [
        ServiceInfraModule.forRoot({
          service: 'media',
          env: { token: MEDIA_ENV, value: env },
          databaseUrl: env.DATABASE_URL,
          sqlPoolSize: env.MEDIA_DB_POOL_SIZE,
          storage,
          queuesRedis: env,
          // A worker's hundreds of jobs in flight each move, add and finish a job: one write per turn, not per command.
          queuesAutoPipelining: true,
          signedUrls: true,
          catalogTtlSeconds: env.CATALOG_TTL_SECONDS,
        }),
        BillingClientModule.forRoot(loadEnv(BillingEnv)),
      ],
      controllers: api ? [MediaHandler, MediaCallbackHandler] : [],
      providers: [
        ...shared,
        ...(api
          ? [
              MediaCreateService,
              MediaQueryService,
              MediaImageSyncService,
              MediaConsoleService,
              TaskEndWaiter,
              MediaCallbackService,
              { provide: CallbackTokenSigner, useFactory: () => CallbackTokenSigner.fromEnv() },
            ]
          : []),
        ...(worker ? [MediaPollService, MediaSweepService, MediaWorkerProcessor] : []),
      ],
    };
  }
}
