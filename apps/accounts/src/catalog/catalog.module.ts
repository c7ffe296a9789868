// Owns reading the model catalog: what each tenant may see, and how the chat service reaches a model upstream.
import { Module } from '@nestjs/common';
import { CatalogHandler } from './catalog.handler';
import { CatalogPageHandler } from './catalog-page.handler';
import { CatalogPageRepository } from './catalog-page.repository';
import { CatalogPageService } from './catalog-page.service';
import { CatalogRepository } from './catalog.repository';
import { CatalogService } from './catalog.service';

@Module({ controllers: [CatalogHandler, CatalogPageHandler], providers: [CatalogService, CatalogRepository, CatalogPageService, CatalogPageRepository] })
export class CatalogModule {}
