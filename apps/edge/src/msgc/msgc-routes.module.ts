import { Module } from '@nestjs/common';
import { OaicRoutesModule } from '../oaic/oaic-routes.module';
import { MsgcRoutes } from './msgc.routes';

/** The msgc family at the edge: messages (JSON or SSE with named events) and count_tokens, over the shared chat relay. */
@Module({ imports: [OaicRoutesModule], providers: [MsgcRoutes] })
export class MsgcRoutesModule {}
