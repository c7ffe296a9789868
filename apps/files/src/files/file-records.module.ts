import { Module } from '@nestjs/common';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';

/** File records over object storage, used by the files routes and by batches (inputs and outputs). */
@Module({ providers: [FilesRepository, FilesService], exports: [FilesRepository, FilesService] })
export class FileRecordsModule {}
