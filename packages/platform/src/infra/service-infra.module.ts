import { PrismaClient } from '@gateway/db';
import { createObjectStore, loadSignedUrlEnv, UrlSigner, type ObjectStore, type StorageEnv } from '@gateway/storage';
import { Global, Inject, Injectable, Module, Optional, type DynamicModule, type OnApplicationShutdown, type OnModuleInit, type Provider } from '@nestjs/common';
import Redis from 'ioredis';
import { createRedis } from '../redis/create-redis';
import type { RedisTarget } from '../redis/redis-env';
import { CatalogCache } from '../cache/catalog-cache';
import { NatsBus } from '../nats/nats-bus';
import { RedisReplyStore } from '../nats/reply-claims';
import { QueueFactory } from '../queue/queue-factory';
import { databaseProviders, SQL_POOL } from './database.providers';
import { queuePrefix } from '../queue/queue-prefix';

export const OBJECT_STORE = Symbol('OBJECT_STORE');
export const SIGNED_URLS = Symbol('SIGNED_URLS');
const REPLY_CLAIMS = Symbol('REPLY_CLAIMS');

/** The signer of the gateway's own download links, and how long a link lives. */
export interface SignedUrls {
  signer: UrlSigner;
  ttlSeconds: number;
}

export interface ServiceInfraOptions {
  /** The service's name: its BullMQ queues' prefix. */
  service: string;
  /** The service's parsed env, provided under its own token. */
  env: { token: symbol; value: unknown };
  databaseUrl: string;
  sqlPoolSize?: number;
  storage: StorageEnv;
  /** Redis under the `Redis` class; with `replyClaims`, replies too large for one NATS message are taken from it. */
  redis?: { connection: RedisTarget; replyClaims?: boolean };
  /** BullMQ queues (`QueueFactory`) on this Redis. */
  queuesRedis?: RedisTarget;
  /** The queues' commands of one event-loop turn in one socket write (QueueFactory `autoPipelining`). */
  queuesAutoPipelining?: boolean;
  signedUrls?: boolean;
  /** The tenants' visible models and the models' channels (`CatalogCache`), kept this long between invalidations. */
  catalogTtlSeconds?: number;
}

@Injectable()
class InfraLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(NatsBus) private readonly bus: NatsBus,
    @Optional() @Inject(Redis) private readonly redis?: Redis,
    @Optional() @Inject(QueueFactory) private readonly queues?: QueueFactory,
    @Optional() @Inject(REPLY_CLAIMS) private readonly replyClaims?: boolean,
    @Optional() @Inject(CatalogCache) private readonly catalog?: CatalogCache,
  ) {}

  onModuleInit(): void {
    if (this.replyClaims && this.redis) this.bus.replyClaims.use(new RedisReplyStore(this.redis));
    this.catalog?.watch();
  }

  async onApplicationShutdown(): Promise<void> {
    this.catalog?.close();
    await this.queues?.close();
    await this.prisma.$disconnect();
    this.redis?.disconnect();
  }
}

/** A NATS service's connections, one name each: its env, SQL_POOL and PrismaClient, OBJECT_STORE, and where asked Redis, QueueFactory, SIGNED_URLS and CatalogCache. */
@Global()
@Module({})
export class ServiceInfraModule {
  static forRoot(options: ServiceInfraOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: options.env.token, useValue: options.env.value },
      ...databaseProviders(options.service, options.databaseUrl, options.sqlPoolSize),
      { provide: OBJECT_STORE, useFactory: (): ObjectStore => createObjectStore(options.storage) },
      InfraLifecycle,
    ];
    const exported: Array<symbol | Provider> = [options.env.token, SQL_POOL, PrismaClient, OBJECT_STORE];
    if (options.redis) {
      const { connection, replyClaims = false } = options.redis;
      providers.push({ provide: Redis, useFactory: () => createRedis(connection, options.service, { enableAutoPipelining: true }) });
      providers.push({ provide: REPLY_CLAIMS, useValue: replyClaims });
      exported.push(Redis);
    }
    if (options.queuesRedis) {
      const redis = options.queuesRedis;
      providers.push({
        provide: QueueFactory,
        inject: [NatsBus],
        useFactory: (bus: NatsBus) =>
          new QueueFactory({ redis, prefix: queuePrefix(options.service, bus.prefix), autoPipelining: options.queuesAutoPipelining }),
      });
      exported.push(QueueFactory);
    }
    if (options.signedUrls) {
      providers.push({
        provide: SIGNED_URLS,
        useFactory: (): SignedUrls => ({ signer: UrlSigner.fromEnv(), ttlSeconds: loadSignedUrlEnv(process.env).ttlSeconds }),
      });
      exported.push(SIGNED_URLS);
    }
    if (options.catalogTtlSeconds) {
      const ttlMs = options.catalogTtlSeconds * 1000;
      providers.push({ provide: CatalogCache, inject: [NatsBus], useFactory: (bus: NatsBus) => new CatalogCache(bus, ttlMs) });
      exported.push(CatalogCache);
    }
    return { module: ServiceInfraModule, providers, exports: exported };
  }
}
