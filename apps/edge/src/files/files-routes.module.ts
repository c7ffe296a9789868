import { loadEnv } from '@gateway/platform';
import { createObjectStore, StorageEnv } from '@gateway/storage';
import { Module } from '@nestjs/common';
import { FileUploadService } from './file-upload.service';
import { EDGE_FILES_ENV, EdgeFilesEnv, FILES_OBJECT_STORE } from './files-env';
import { FilesRoutes } from './files.routes';

/**
 * Files and batches at the edge: uploads stream from the socket into object storage and only the key
 * and metadata go to the files service; downloads stream back from storage. Multipart parsing is the
 * oaic module's registration, with this module's own size limit per upload.
 */
@Module({
  providers: [
    { provide: EDGE_FILES_ENV, useFactory: () => loadEnv(EdgeFilesEnv) },
    { provide: FILES_OBJECT_STORE, useFactory: () => createObjectStore(loadEnv(StorageEnv)) },
    FileUploadService,
    FilesRoutes,
  ],
})
export class FilesRoutesModule {}
