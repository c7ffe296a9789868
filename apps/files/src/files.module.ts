import { Module } from '@nestjs/common';

/** Files (bytes in object storage), batches and assistants pass-through join here. */
@Module({})
export class FilesModule {}
