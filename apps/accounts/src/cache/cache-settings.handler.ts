import { RpcHandler } from '@gateway/platform';
import { CacheSetRequest, parseOrThrow, type CacheSetReply, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CacheSettingsService } from './cache-settings.service';

@Controller()
export class CacheSettingsHandler {
  constructor(@Inject(CacheSettingsService) private readonly settings: CacheSettingsService) {}

  @RpcHandler(RPCS.accounts.cache.set)
  set(@Payload() payload: unknown): Promise<CacheSetReply> {
    return this.settings.set(parseOrThrow(CacheSetRequest, payload));
  }
}
