import { Module } from '@nestjs/common';
import { CatalogHandler } from './catalog.handler';
import { CatalogService } from './catalog.service';

/** Model visibility per tenant and channels per model, cached from accounts and dropped on invalidation. */
@Module({ controllers: [CatalogHandler], providers: [CatalogService], exports: [CatalogService] })
export class CatalogModule {}
