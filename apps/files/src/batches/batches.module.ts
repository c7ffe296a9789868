import { NatsBus, QueueFactory, queuePrefix, RedisReplyStore, createRedis } from '@gateway/platform';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { FILES_ENV, type FilesEnv } from '../config/files-env';
import { FileRecordsModule } from '../files/file-records.module';
import { BatchFinisher } from './batch-finisher';
import { BatchLineRunner } from './batch-line.runner';
import { BatchProcessor } from './batch.processor';
import { BatchRunnerService } from './batch-runner.service';
import { BATCH_LINE_RUNNER, BATCH_QUEUES, BATCH_REDIS, NATIVE_BACKOFF, TENANT_SLOTS } from './batch-tokens';
import { BatchesHandler } from './batches.handler';
import { BatchConsoleService } from './batch-console.service';
import { BatchesRepository } from './batches.repository';
import { BatchesService } from './batches.service';
import { NativeBatchBilling } from './native/native-batch.billing';
import { NativeBatchCatalog } from './native/native-batch.catalog';
import { NativeBatchService } from './native/native-batch.service';
import { NativeBatchUpstream } from './native/native-batch.upstream';
import { UpstreamBackoff } from './native/upstream-backoff';
import { TenantSlots } from './tenant-slots';

/** Batches: the api role records and answers them over NATS, the worker role runs them from the queue (line by line, or native: forwarded whole to the upstream). */
@Module({})
export class BatchesModule implements OnApplicationShutdown {
  constructor(
    @Inject(BATCH_QUEUES) private readonly queues: QueueFactory,
    @Inject(BATCH_REDIS) private readonly redis: Redis,
    @Inject(TENANT_SLOTS) private readonly slots: TenantSlots,
  ) {}

  static forRole(api: boolean, worker: boolean): DynamicModule {
    return {
      module: BatchesModule,
      imports: [FileRecordsModule],
      controllers: api ? [BatchesHandler] : [],
      providers: [
        {
          provide: BATCH_QUEUES,
          inject: [FILES_ENV],
          useFactory: (env: FilesEnv) => new QueueFactory({ redis: env, prefix: queuePrefix('files', env.NATS_PREFIX) }),
        },
        { provide: BATCH_REDIS, inject: [FILES_ENV], useFactory: (env: FilesEnv) => createRedis(env, 'batches') },
        {
          provide: TENANT_SLOTS,
          inject: [BATCH_REDIS, FILES_ENV],
          useFactory: (redis: Redis, env: FilesEnv) => new TenantSlots(redis, `${queuePrefix('files', env.NATS_PREFIX)}:`, env.BATCH_TENANT_CONCURRENCY),
        },
        {
          provide: BATCH_LINE_RUNNER,
          inject: [NatsBus, BATCH_REDIS, FILES_ENV],
          useFactory: (bus: NatsBus, redis: Redis, env: FilesEnv) => {
            // A line's answer too large for one NATS message comes by claim check from the same Redis.
            bus.replyClaims.use(new RedisReplyStore(redis));
            return new BatchLineRunner(bus, redis, env.BATCH_LINE_TIMEOUT_MS);
          },
        },
        {
          provide: NATIVE_BACKOFF,
          inject: [BATCH_REDIS, FILES_ENV],
          useFactory: (redis: Redis, env: FilesEnv) =>
            new UpstreamBackoff(redis, `${queuePrefix('files', env.NATS_PREFIX)}:`, env.NATIVE_BATCH_POLL_MS, env.NATIVE_BATCH_POLL_MAX_MS),
        },
        BatchesRepository,
        BatchesService,
        ...(api ? [BatchConsoleService] : []),
        BatchFinisher,
        NativeBatchCatalog,
        NativeBatchUpstream,
        NativeBatchBilling,
        NativeBatchService,
        BatchRunnerService,
        ...(worker ? [BatchProcessor] : []),
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queues.close();
    this.slots.close();
    this.redis.disconnect();
  }
}
