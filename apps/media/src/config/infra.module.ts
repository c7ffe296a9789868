import { createPrismaClient, createSqlPool, PrismaClient, type SqlPool } from '@gateway/db';
import { NatsBus, QueueFactory, queuePrefix } from '@gateway/platform';
import { createObjectStore, loadSignedUrlEnv, UrlSigner, type ObjectStore, type StorageEnv } from '@gateway/storage';
import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MEDIA_ENV, OBJECT_STORE, type MediaEnv } from './media-env';

export const SIGNED_URL_TTL = Symbol('SIGNED_URL_TTL');
/** The pg pool under Prisma, for the statement of every task create (a named prepared statement skips Prisma's per-call query compilation). */
export const SQL_POOL = Symbol('SQL_POOL');

/** Owns the media service's connections: env, Postgres (one pool, Prisma over it), the BullMQ queues, object storage and the URL signer. */
@Global()
@Module({})
export class InfraModule implements OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  static forRoot(env: MediaEnv, storage: StorageEnv): DynamicModule {
    const signed = loadSignedUrlEnv(process.env);
    return {
      module: InfraModule,
      providers: [
        { provide: MEDIA_ENV, useValue: env },
        { provide: SQL_POOL, useFactory: (): SqlPool => createSqlPool(env.DATABASE_URL, env.MEDIA_DB_POOL_SIZE) },
        { provide: PrismaClient, inject: [SQL_POOL], useFactory: (pool: SqlPool) => createPrismaClient(pool) },
        { provide: OBJECT_STORE, useFactory: (): ObjectStore => createObjectStore(storage) },
        { provide: UrlSigner, useValue: new UrlSigner(signed.secret) },
        { provide: SIGNED_URL_TTL, useValue: signed.ttlSeconds },
        {
          provide: QueueFactory,
          inject: [NatsBus],
          useFactory: (bus: NatsBus) => new QueueFactory({ redisUrl: env.REDIS_URL, prefix: queuePrefix('media', bus.prefix) }),
        },
      ],
      exports: [MEDIA_ENV, PrismaClient, SQL_POOL, OBJECT_STORE, UrlSigner, SIGNED_URL_TTL, QueueFactory],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.moduleRef.get(QueueFactory).close();
    await this.moduleRef.get(PrismaClient).$disconnect();
  }
}
