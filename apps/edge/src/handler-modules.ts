import type { Type } from '@nestjs/common';
import { ModelsModule } from './models/models.module';
import { OaicModule } from './oaic/oaic.module';
import { RoomModule } from './room/room.module';

/**
 * Modules whose providers carry @RouteHandler methods. A family's module joins the edge by being
 * listed here; the registrar finds its handlers by route id.
 */
export const HANDLER_MODULES: Type[] = [ModelsModule, RoomModule, OaicModule];
