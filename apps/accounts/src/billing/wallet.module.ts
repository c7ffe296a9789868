// Owns the accounts side of the live wallet: its Redis connection and billing settings, shared by the
// ledger consumer, the hold sweeper, top-ups and the billing handlers.
import { BillingEnv, WalletKeys, WalletStore } from '@gateway/billing';
import { loadEnv, NatsBus, createRedis } from '@gateway/platform';
import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';

export const BILLING_ENV = Symbol('BILLING_ENV');
export const WALLET_REDIS = Symbol('WALLET_REDIS');

@Injectable()
class WalletLifecycle implements OnApplicationShutdown {
  constructor(@Inject(WALLET_REDIS) private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}

@Global()
@Module({
  providers: [
    { provide: BILLING_ENV, useFactory: () => loadEnv(BillingEnv) },
    { provide: WALLET_REDIS, inject: [BILLING_ENV], useFactory: (env: BillingEnv) => createRedis(env, 'wallet', { maxRetriesPerRequest: null }) },
    { provide: WalletKeys, inject: [NatsBus], useFactory: (bus: NatsBus) => WalletKeys.fromPrefix(bus.prefix) },
    { provide: WalletStore, inject: [WALLET_REDIS, WalletKeys], useFactory: (redis: Redis, keys: WalletKeys) => new WalletStore(redis, keys) },
    WalletLifecycle,
  ],
  exports: [BILLING_ENV, WALLET_REDIS, WalletKeys, WalletStore],
})
export class WalletModule {}
