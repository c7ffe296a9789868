import { Module } from '@nestjs/common';
import { OaicRoutesModule } from '../oaic/oaic-routes.module';
import { GencRoutes } from './genc.routes';

/** The genc family at the edge: generateContent and streamGenerateContent, over the shared chat relay. */
@Module({ imports: [OaicRoutesModule], providers: [GencRoutes] })
export class GencRoutesModule {}
