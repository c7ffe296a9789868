import type { Type } from '@nestjs/common';
import { AssistantsModule } from './assistants/assistants.module';
import { FilesModule } from './files/files.module';
import { GencModule } from './genc/genc.module';
import { MediaModule } from './media/media.module';
import { ModelsModule } from './models/models.module';
import { MsgcModule } from './msgc/msgc.module';
import { MusicModule } from './music/music.module';
import { OaicModule } from './oaic/oaic.module';
import { RoomModule } from './room/room.module';
import { SignedFilesModule } from './signed-files/signed-files.module';

/**
 * Modules whose providers carry @RouteHandler methods. A family's module joins the edge by being
 * listed here; the registrar finds its handlers by route id.
 */
export const HANDLER_MODULES: Type[] = [
  ModelsModule,
  RoomModule,
  OaicModule,
  MsgcModule,
  GencModule,
  SignedFilesModule,
  FilesModule,
  MusicModule,
  MediaModule,
  AssistantsModule,
];
