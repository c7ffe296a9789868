import { Module } from '@nestjs/common';
import { OaicRoutesModule } from '../oaic/oaic-routes.module';
import { AssistantsRoutes } from './assistants.routes';

/** The assistants pass-through at the edge: its routes relayed to the chat service like other oaic routes. */
@Module({ imports: [OaicRoutesModule], providers: [AssistantsRoutes] })
export class AssistantsRoutesModule {}
