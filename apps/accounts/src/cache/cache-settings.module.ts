// Owns the response cache settings of tenants and keys; the chat service keeps the cached answers.
import { Module } from '@nestjs/common';
import { CacheSettingsHandler } from './cache-settings.handler';
import { CacheSettingsRepository } from './cache-settings.repository';
import { CacheSettingsService } from './cache-settings.service';

@Module({ controllers: [CacheSettingsHandler], providers: [CacheSettingsService, CacheSettingsRepository] })
export class CacheSettingsModule {}
