import { BillingClientModule, BillingEnv } from '@gateway/billing';
import { loadEnv } from '@gateway/platform';
import { ServiceInfraModule } from '@gateway/platform/infra';
import type { StorageEnv } from '@gateway/storage';
import { Module, type DynamicModule } from '@nestjs/common';
import { BatchesModule } from './batches/batches.module';
import { FILES_ENV, runsApi, runsWorker, type FilesEnv } from './config/files-env';
import { FilesHandler } from './files/files.handler';
import { FileRecordsModule } from './files/file-records.module';

/**
 * The files service: file records over object storage, batches and their workers. FILES_ROLE picks what
 * this process does: `api` answers NATS, `worker` runs batch jobs, `all` both.
 */
@Module({})
export class FilesModule {
  static forRoot(env: FilesEnv, storage: StorageEnv): DynamicModule {
    return {
      module: FilesModule,
      imports: [
        ServiceInfraModule.forRoot({ service: 'files', env: { token: FILES_ENV, value: env }, databaseUrl: env.DATABASE_URL, storage }),
        // Native batches hold and settle each line's cost themselves (line-by-line batches are billed by the chat service).
        BillingClientModule.forRoot(loadEnv(BillingEnv)),
        FileRecordsModule,
        BatchesModule.forRole(runsApi(env), runsWorker(env)),
      ],
      controllers: runsApi(env) ? [FilesHandler] : [],
    };
  }
}
