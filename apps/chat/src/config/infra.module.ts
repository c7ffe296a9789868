import { createPrismaClient, PrismaClient } from '@gateway/db';
import { NatsBus, RedisReplyStore } from '@gateway/platform';
import { createObjectStore, type ObjectStore, type StorageEnv } from '@gateway/storage';
import { Global, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import Redis from 'ioredis';
import { CHAT_ENV, type ChatEnv } from './chat-env';

export const OBJECT_STORE = Symbol('OBJECT_STORE');

/**
 * Owns the chat service's connections: env, Postgres (Prisma), Redis (claim checks of requests and of
 * replies too large for one NATS message) and object storage.
 */
@Global()
@Module({})
export class InfraModule implements OnModuleInit, OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    this.moduleRef.get(NatsBus, { strict: false }).replyClaims.use(new RedisReplyStore(this.moduleRef.get(Redis)));
  }

  static forRoot(env: ChatEnv, storage: StorageEnv): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: CHAT_ENV, useValue: env },
        { provide: PrismaClient, useFactory: () => createPrismaClient(env.DATABASE_URL) },
        { provide: Redis, useFactory: () => new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, enableAutoPipelining: true }) },
        { provide: OBJECT_STORE, useFactory: (): ObjectStore => createObjectStore(storage) },
      ],
      exports: [CHAT_ENV, PrismaClient, Redis, OBJECT_STORE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.moduleRef.get(PrismaClient).$disconnect();
    this.moduleRef.get(Redis).disconnect();
  }
}
