import { createPrismaClient, createSqlPool, PrismaClient, type SqlPool } from '@gateway/db';
import { QueueFactory, queuePrefix } from '@gateway/platform';
import { createObjectStore, loadSignedUrlEnv, UrlSigner, type ObjectStore, type StorageEnv } from '@gateway/storage';
import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MUSIC_ENV, type MusicEnv } from './music-env';

export const OBJECT_STORE = Symbol('OBJECT_STORE');
export const MUSIC_QUEUES = Symbol('MUSIC_QUEUES');
export const SIGNED_URLS = Symbol('SIGNED_URLS');
/** The pg pool under Prisma, for the statements every upstream callback runs. */
export const MUSIC_SQL_POOL = Symbol('MUSIC_SQL_POOL');

export interface SignedUrls {
  signer: UrlSigner;
  ttlSeconds: number;
}

/** Owns the music service's connections: env, Postgres (one pool, Prisma over it), object storage, its BullMQ queues, the link signer. */
@Global()
@Module({})
export class InfraModule implements OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  static forRoot(env: MusicEnv, storage: StorageEnv): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: MUSIC_ENV, useValue: env },
        { provide: MUSIC_SQL_POOL, useFactory: () => createSqlPool(env.DATABASE_URL, env.MUSIC_DB_POOL_SIZE) },
        { provide: PrismaClient, inject: [MUSIC_SQL_POOL], useFactory: (pool: SqlPool) => createPrismaClient(pool) },
        { provide: OBJECT_STORE, useFactory: (): ObjectStore => createObjectStore(storage) },
        { provide: MUSIC_QUEUES, useFactory: () => new QueueFactory({ redisUrl: env.REDIS_URL, prefix: queuePrefix('music', env.NATS_PREFIX) }) },
        { provide: SIGNED_URLS, useFactory: (): SignedUrls => ({ signer: UrlSigner.fromEnv(), ttlSeconds: loadSignedUrlEnv(process.env).ttlSeconds }) },
      ],
      exports: [MUSIC_ENV, PrismaClient, MUSIC_SQL_POOL, OBJECT_STORE, MUSIC_QUEUES, SIGNED_URLS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.moduleRef.get<QueueFactory>(MUSIC_QUEUES).close();
    await this.moduleRef.get(PrismaClient).$disconnect();
  }
}
