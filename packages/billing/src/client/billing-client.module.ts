// Owns the billing client of a request-serving service: its Redis connection, profile cache and wallet.
import { NatsBus, createRedis } from '@gateway/platform';
import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import type { BillingEnv } from '../billing-env';
import { WalletKeys } from '../redis/wallet-keys';
import { WalletStore } from '../redis/wallet.store';
import { BillingClient } from './billing-client';
import { ProfileCache } from './profile-cache';

const BILLING_REDIS = Symbol('BILLING_REDIS');

@Injectable()
class BillingClientLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(BILLING_REDIS) private readonly redis: Redis,
    @Inject(BillingClient) private readonly client: BillingClient,
  ) {}

  onApplicationShutdown(): void {
    this.client.profiles.stop();
    this.redis.disconnect();
  }
}

@Global()
@Module({})
export class BillingClientModule {
  static forRoot(env: BillingEnv): DynamicModule {
    return {
      module: BillingClientModule,
      providers: [
        { provide: BILLING_REDIS, useFactory: () => createRedis(env, 'billing', { enableAutoPipelining: true }) },
        {
          provide: BillingClient,
          inject: [BILLING_REDIS, NatsBus],
          useFactory: (redis: Redis, bus: NatsBus) => {
            const profiles = new ProfileCache(bus);
            profiles.follow();
            const wallet = new WalletStore(redis, WalletKeys.fromPrefix(bus.prefix));
            return new BillingClient(wallet, bus, profiles, {
              enabled: env.BILLING_ENABLED,
              holdTtlMs: env.BILLING_HOLD_TTL_MS,
              leaseRequests: env.BILLING_LEASE_REQUESTS,
              leaseTtlMs: env.BILLING_LEASE_TTL_MS,
            });
          },
        },
        BillingClientLifecycle,
      ],
      exports: [BillingClient],
    };
  }
}
