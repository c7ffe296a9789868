import { DynamicModule, Global, Module } from '@nestjs/common';
import { NatsBus } from './nats-bus';

/** Makes the process's one NatsBus injectable everywhere. */
@Global()
@Module({})
export class NatsModule {
  static forBus(bus: NatsBus): DynamicModule {
    return { module: NatsModule, providers: [{ provide: NatsBus, useValue: bus }], exports: [NatsBus] };
  }
}
