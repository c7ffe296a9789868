import { Module } from '@nestjs/common';

/** Image and video tasks (oaic videos, dsc, nativemedia): task handlers and pollers join here. */
@Module({})
export class MediaModule {}
