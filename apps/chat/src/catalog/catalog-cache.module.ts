import { Module } from '@nestjs/common';
import { CatalogInvalidationHandler } from './catalog-invalidation.handler';
import { CatalogCache } from './catalog.cache';

/** Model visibility per tenant and channels per model, cached from accounts and dropped on invalidation. */
@Module({ controllers: [CatalogInvalidationHandler], providers: [CatalogCache], exports: [CatalogCache] })
export class CatalogCacheModule {}
