import { Module } from '@nestjs/common';

/** Music tasks, upstream callback intake and signed tenant webhooks join here. */
@Module({})
export class MusicModule {}
