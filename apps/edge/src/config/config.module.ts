import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { EdgeEnv } from './edge-env';
import { EDGE_ENV } from './edge-env.token';

/** Makes the validated EdgeEnv injectable everywhere. */
@Global()
@Module({})
export class EdgeConfigModule {
  static forEnv(env: EdgeEnv): DynamicModule {
    return { module: EdgeConfigModule, providers: [{ provide: EDGE_ENV, useValue: env }], exports: [EDGE_ENV] };
  }
}
