import { Module } from '@nestjs/common';
import { ModelsModule } from '../models/models.module';
import { RoomHandler } from './room.handler';

/** Owns the chat-room integration endpoints: models by scope, enterprise and key context. */
@Module({ imports: [ModelsModule], providers: [RoomHandler] })
export class RoomModule {}
