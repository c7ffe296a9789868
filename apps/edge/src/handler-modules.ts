import type { Type } from '@nestjs/common';
import { AssistantsRoutesModule } from './assistants/assistants-routes.module';
import { FilesRoutesModule } from './files/files-routes.module';
import { GencRoutesModule } from './genc/genc-routes.module';
import { MediaRoutesModule } from './media/media-routes.module';
import { ModelsRoutesModule } from './models/models-routes.module';
import { MsgcRoutesModule } from './msgc/msgc-routes.module';
import { MusicRoutesModule } from './music/music-routes.module';
import { OaicRoutesModule } from './oaic/oaic-routes.module';
import { RoomRoutesModule } from './room/room-routes.module';
import { SignedFilesModule } from './signed-files/signed-files.module';

/**
 * Modules whose providers carry @RouteHandler methods. A family's module joins the edge by being
 * listed here; the registrar finds its handlers by route id.
 */
export const HANDLER_MODULES: Type[] = [
  ModelsRoutesModule,
  RoomRoutesModule,
  OaicRoutesModule,
  MsgcRoutesModule,
  GencRoutesModule,
  SignedFilesModule,
  FilesRoutesModule,
  MusicRoutesModule,
  MediaRoutesModule,
  AssistantsRoutesModule,
];
