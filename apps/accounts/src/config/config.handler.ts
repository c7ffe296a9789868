import { RpcHandler } from '@gateway/platform';
import { GatewayConfig, parseOrThrow, type ApplyResult, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConfigService } from './config.service';

@Controller()
export class ConfigHandler {
  constructor(@Inject(ConfigService) private readonly config: ConfigService) {}

  /** The raw file as the operator wrote it: parsed here so errors name the path inside the file. */
  @RpcHandler(RPCS.accounts.config.apply)
  apply(@Payload() payload: unknown): Promise<ApplyResult> {
    return this.config.apply(parseOrThrow(GatewayConfig, payload));
  }
}
