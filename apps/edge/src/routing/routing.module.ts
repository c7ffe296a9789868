import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { RouteRegistrar } from './route-registrar.service';

/** Owns the public route surface: discovery of @RouteHandler methods and their registration on Fastify. */
@Module({ imports: [DiscoveryModule, AuthModule], providers: [RouteRegistrar], exports: [RouteRegistrar] })
export class RoutingModule {}
