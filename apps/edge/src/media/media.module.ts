// The media families at the edge: oaic videos, dsc and nativemedia, relayed to the media service; owns
// the stream of a completed video out of storage.
import { loadEnv } from '@gateway/platform';
import { createObjectStore, StorageEnv } from '@gateway/storage';
import { Module } from '@nestjs/common';
import { MEDIA_EDGE_ENV, MEDIA_OBJECT_STORE, MediaEdgeEnv } from './media-env';
import { MediaHandler } from './media.handler';
import { MediaRelayService } from './media-relay.service';

@Module({
  providers: [
    { provide: MEDIA_EDGE_ENV, useFactory: () => loadEnv(MediaEdgeEnv) },
    { provide: MEDIA_OBJECT_STORE, useFactory: () => createObjectStore(loadEnv(StorageEnv)) },
    MediaRelayService,
    MediaHandler,
  ],
})
export class MediaModule {}
