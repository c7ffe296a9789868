import { CacheSetRequest, parseOrThrow, SUBJECTS, type CacheSetReply } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CacheSettingsService } from './cache-settings.service';

@Controller()
export class CacheSettingsHandler {
  constructor(@Inject(CacheSettingsService) private readonly settings: CacheSettingsService) {}

  @MessagePattern(SUBJECTS.accounts.cache.set)
  set(@Payload() payload: unknown): Promise<CacheSetReply> {
    return this.settings.set(parseOrThrow(CacheSetRequest, payload));
  }
}
