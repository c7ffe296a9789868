import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { RelayModule } from '../relay/relay.module';
import { RouteRegistrar } from './route-registrar.service';

/** Owns the public route surface: table relays and @RouteHandler methods, registered on Fastify. */
@Module({ imports: [DiscoveryModule, AuthModule, RelayModule], providers: [RouteRegistrar], exports: [RouteRegistrar] })
export class RoutingModule {}
