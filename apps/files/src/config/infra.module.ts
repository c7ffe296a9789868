import { createPrismaClient, PrismaClient } from '@gateway/db';
import { createObjectStore, type ObjectStore, type StorageEnv } from '@gateway/storage';
import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { FILES_ENV, OBJECT_STORE, type FilesEnv } from './files-env';

/** Owns the files service's connections: env, Postgres (Prisma) and object storage. */
@Global()
@Module({})
export class InfraModule implements OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  static forRoot(env: FilesEnv, storage: StorageEnv): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: FILES_ENV, useValue: env },
        { provide: PrismaClient, useFactory: () => createPrismaClient(env.DATABASE_URL) },
        { provide: OBJECT_STORE, useFactory: (): ObjectStore => createObjectStore(storage) },
      ],
      exports: [FILES_ENV, PrismaClient, OBJECT_STORE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.moduleRef.get(PrismaClient).$disconnect();
  }
}
