import { Module } from '@nestjs/common';
import { OaicModule } from '../oaic/oaic.module';
import { MsgcHandler } from './msgc.handler';

/** The msgc family at the edge: messages (JSON or SSE with named events) and count_tokens, over the shared chat relay. */
@Module({ imports: [OaicModule], providers: [MsgcHandler] })
export class MsgcModule {}
