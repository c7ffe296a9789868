import { CONSOLE_OPERATOR_SUBJECTS, ConsoleCatalogRequest, parseOrThrow, type ConsoleCatalogPage } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CatalogPageService } from './catalog-page.service';

@Controller()
export class CatalogPageHandler {
  constructor(@Inject(CatalogPageService) private readonly catalog: CatalogPageService) {}

  @MessagePattern(CONSOLE_OPERATOR_SUBJECTS.catalog)
  page(@Payload() payload: unknown): Promise<ConsoleCatalogPage> {
    return this.catalog.page(parseOrThrow(ConsoleCatalogRequest, payload ?? {}));
  }
}
