import { Module } from '@nestjs/common';
import { ModelsRoutesModule } from '../models/models-routes.module';
import { RoomRoutes } from './room.routes';

/** Owns the chat-room integration endpoints: models by scope, enterprise and key context. */
@Module({ imports: [ModelsRoutesModule], providers: [RoomRoutes] })
export class RoomRoutesModule {}
