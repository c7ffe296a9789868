import { RpcHandler } from '@gateway/platform';
import { ConsoleCatalogRequest, parseOrThrow, type ConsoleCatalogPage, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CatalogPageService } from './catalog-page.service';

@Controller()
export class CatalogPageHandler {
  constructor(@Inject(CatalogPageService) private readonly catalog: CatalogPageService) {}

  @RpcHandler(RPCS.accounts.console.catalog)
  page(@Payload() payload: unknown): Promise<ConsoleCatalogPage> {
    return this.catalog.page(parseOrThrow(ConsoleCatalogRequest, payload ?? {}));
  }
}
