import type { Type } from '@nestjs/common';
import { FilesRoutesModule } from './files/files-routes.module';
import { MediaRoutesModule } from './media/media-routes.module';
import { ModelsRoutesModule } from './models/models-routes.module';
import { MusicRoutesModule } from './music/music-routes.module';
import { OaicRoutesModule } from './oaic/oaic-routes.module';
import { RoomRoutesModule } from './room/room-routes.module';
import { SignedFilesModule } from './signed-files/signed-files.module';

/**
 * Modules whose providers carry @RouteHandler methods (routes that do real work at the edge) or own a
 * family's extra listeners (callbacks). Pure relay routes need none: the route table serves them.
 */
export const HANDLER_MODULES: Type[] = [
  ModelsRoutesModule,
  RoomRoutesModule,
  OaicRoutesModule,
  SignedFilesModule,
  FilesRoutesModule,
  MusicRoutesModule,
  MediaRoutesModule,
];
