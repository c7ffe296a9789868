import { NatsBus, NatsModule } from '@gateway/platform';
import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { EdgeConfigModule } from './config/config.module';
import { LimitsModule } from './limits/limits.module';
import type { EdgeEnv } from './config/edge-env';
import { OpsModule } from './ops/ops.module';
import { RoutingModule } from './routing/routing.module';

/** The edge's root: config, the NATS bus, auth, routing, ops, and every module that handles routes. */
@Module({})
export class EdgeModule {
  static forRoot(env: EdgeEnv, bus: NatsBus, handlerModules: readonly Type[]): DynamicModule {
    return {
      module: EdgeModule,
      imports: [EdgeConfigModule.forEnv(env), NatsModule.forBus(bus), AuthModule, LimitsModule, RoutingModule, OpsModule, ...handlerModules],
    };
  }
}
