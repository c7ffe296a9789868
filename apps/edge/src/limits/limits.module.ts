// Owns rate limiting at the edge: per key and per tenant requests, tokens per minute and concurrency,
// counted in the Redis every edge replica shares.
import { loadEnv, NatsBus } from '@gateway/platform';
import { Module } from '@nestjs/common';
import Redis from 'ioredis';
import { AuthModule } from '../auth/auth.module';
import { LimitsHook } from './limits.hook';
import { LimitsEnv } from './limits-env';
import { LIMITS_NAMESPACE, LIMITS_REDIS, RateLimiter } from './rate-limiter.service';

@Module({
  imports: [AuthModule],
  providers: [
    // Lazy: a deployment where no key has limits never opens this connection.
    {
      provide: LIMITS_REDIS,
      useFactory: () => new Redis(loadEnv(LimitsEnv).REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, enableAutoPipelining: true }),
    },
    { provide: LIMITS_NAMESPACE, inject: [NatsBus], useFactory: (bus: NatsBus) => bus.prefix.replace(/\.$/, '') || 'default' },
    RateLimiter,
    LimitsHook,
  ],
})
export class LimitsModule {}
