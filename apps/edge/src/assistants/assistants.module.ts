import { Module } from '@nestjs/common';
import { OaicModule } from '../oaic/oaic.module';
import { AssistantsHandler } from './assistants.handler';

/** The assistants pass-through at the edge: its routes relayed to the chat service like other oaic routes. */
@Module({ imports: [OaicModule], providers: [AssistantsHandler] })
export class AssistantsModule {}
