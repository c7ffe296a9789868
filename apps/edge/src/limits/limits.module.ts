// Owns rate limiting at the edge: per key and per tenant requests, tokens per minute and concurrency,
// counted in the Redis every edge replica shares.
import { loadEnv, NatsBus, createRedis } from '@gateway/platform';
import { Module } from '@nestjs/common';
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
      useFactory: () => createRedis(loadEnv(LimitsEnv), 'limits', { lazyConnect: true, enableAutoPipelining: true }),
    },
    { provide: LIMITS_NAMESPACE, inject: [NatsBus], useFactory: (bus: NatsBus) => bus.prefix.replace(/\.$/, '') || 'default' },
    RateLimiter,
    LimitsHook,
  ],
})
export class LimitsModule {}
