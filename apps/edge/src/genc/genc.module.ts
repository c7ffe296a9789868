import { Module } from '@nestjs/common';
import { OaicModule } from '../oaic/oaic.module';
import { GencHandler } from './genc.handler';

/** The genc family at the edge: generateContent and streamGenerateContent, over the shared chat relay. */
@Module({ imports: [OaicModule], providers: [GencHandler] })
export class GencModule {}
