// Owns reading the model catalog: what each tenant may see, and how the chat service reaches a model upstream.
import { Module } from '@nestjs/common';
import { CatalogHandler } from './catalog.handler';
import { CatalogRepository } from './catalog.repository';
import { CatalogService } from './catalog.service';

@Module({ controllers: [CatalogHandler], providers: [CatalogService, CatalogRepository] })
export class CatalogModule {}
