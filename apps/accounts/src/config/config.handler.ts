import { GatewayConfig, parseOrThrow, SUBJECTS, type ApplyResult } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ConfigService } from './config.service';

@Controller()
export class ConfigHandler {
  constructor(@Inject(ConfigService) private readonly config: ConfigService) {}

  /** The raw file as the operator wrote it: parsed here so errors name the path inside the file. */
  @MessagePattern(SUBJECTS.accounts.config.apply)
  apply(@Payload() payload: unknown): Promise<ApplyResult> {
    return this.config.apply(parseOrThrow(GatewayConfig, payload));
  }
}
