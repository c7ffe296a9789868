// Owns `gatewayctl apply`: the declarative, idempotent sync of providers, models, channels, plans and tenants.
import { Module } from '@nestjs/common';
import { ConfigHandler } from './config.handler';
import { ConfigRepository } from './config.repository';
import { ConfigService } from './config.service';

@Module({ controllers: [ConfigHandler], providers: [ConfigService, ConfigRepository] })
export class ConfigModule {}
