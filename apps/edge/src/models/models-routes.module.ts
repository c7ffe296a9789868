import { Module } from '@nestjs/common';
import { ModelsRoutes } from './models.routes';
import { VisibleModelsService } from './visible-models.service';

/** Owns model discovery (oaic and msgc lists): the per-tenant visible-model cache and cursor pagination. */
@Module({ providers: [VisibleModelsService, ModelsRoutes], exports: [VisibleModelsService] })
export class ModelsRoutesModule {}
