import { Module } from '@nestjs/common';
import { ModelsHandler } from './models.handler';
import { VisibleModelsService } from './visible-models.service';

/** Owns model discovery (oaic and msgc lists): the per-tenant visible-model cache and cursor pagination. */
@Module({ providers: [VisibleModelsService, ModelsHandler], exports: [VisibleModelsService] })
export class ModelsModule {}
