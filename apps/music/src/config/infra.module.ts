import { createPrismaClient, PrismaClient } from '@gateway/db';
import { QueueFactory, queuePrefix } from '@gateway/platform';
import { createObjectStore, SignedUrlEnv, UrlSigner, type ObjectStore, type StorageEnv } from '@gateway/storage';
import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MUSIC_ENV, type MusicEnv } from './music-env';

export const OBJECT_STORE = Symbol('OBJECT_STORE');
export const MUSIC_QUEUES = Symbol('MUSIC_QUEUES');
export const SIGNED_URLS = Symbol('SIGNED_URLS');

export interface SignedUrls {
  signer: UrlSigner;
  ttlSeconds: number;
}

/** Owns the music service's connections: env, Postgres (Prisma), object storage, its BullMQ queues, the link signer. */
@Global()
@Module({})
export class InfraModule implements OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  static forRoot(env: MusicEnv, storage: StorageEnv): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: MUSIC_ENV, useValue: env },
        { provide: PrismaClient, useFactory: () => createPrismaClient(env.DATABASE_URL) },
        { provide: OBJECT_STORE, useFactory: (): ObjectStore => createObjectStore(storage) },
        { provide: MUSIC_QUEUES, useFactory: () => new QueueFactory({ redisUrl: env.REDIS_URL, prefix: queuePrefix('music', env.NATS_PREFIX) }) },
        { provide: SIGNED_URLS, useFactory: (): SignedUrls => ({ signer: UrlSigner.fromEnv(), ttlSeconds: SignedUrlEnv.parse(process.env).ttlSeconds }) },
      ],
      exports: [MUSIC_ENV, PrismaClient, OBJECT_STORE, MUSIC_QUEUES, SIGNED_URLS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.moduleRef.get<QueueFactory>(MUSIC_QUEUES).close();
    await this.moduleRef.get(PrismaClient).$disconnect();
  }
}
