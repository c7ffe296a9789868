import { ConsoleCatalogRequest, parseOrThrow, SUBJECTS, type ConsoleCatalogPage } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CatalogPageService } from './catalog-page.service';

@Controller()
export class CatalogPageHandler {
  constructor(@Inject(CatalogPageService) private readonly catalog: CatalogPageService) {}

  @MessagePattern(SUBJECTS.accounts.console.catalog)
  page(@Payload() payload: unknown): Promise<ConsoleCatalogPage> {
    return this.catalog.page(parseOrThrow(ConsoleCatalogRequest, payload ?? {}));
  }
}
