import { RpcHandler } from '@gateway/platform';
import {
  CatalogChannelsRequest,
  ConsoleModelsRequest,
  parseOrThrow,
  SUBJECTS,
  VisibleModelsRequest,
  type CatalogChannelsReply,
  type ConsoleModel,
  type VisibleModelsReply,
  RPCS,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CatalogService } from './catalog.service';

@Controller()
export class CatalogHandler {
  constructor(@Inject(CatalogService) private readonly catalog: CatalogService) {}

  @MessagePattern(SUBJECTS.accounts.models.visible)
  visible(@Payload() payload: unknown): Promise<VisibleModelsReply> {
    return this.catalog.visible(parseOrThrow(VisibleModelsRequest, payload).tenantId);
  }

  @MessagePattern(SUBJECTS.accounts.catalog.channels)
  channels(@Payload() payload: unknown): Promise<CatalogChannelsReply> {
    return this.catalog.channels(parseOrThrow(CatalogChannelsRequest, payload).modelId);
  }

  @RpcHandler(RPCS.accounts.console.models)
  priced(@Payload() payload: unknown): Promise<{ data: ConsoleModel[] }> {
    return this.catalog.priced(parseOrThrow(ConsoleModelsRequest, payload).tenantId);
  }
}
