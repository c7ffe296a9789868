import { Module } from '@nestjs/common';
import { ClaimCheckModule } from '../claim-check/claim-check.module';
import { PipelineModule } from '../pipeline/pipeline.module';
import { MsgcHandler } from './msgc.handler';
import { MsgcService } from './msgc.service';

/** The msgc family in the chat service: messages (unary and streamed) and count_tokens. */
@Module({ imports: [ClaimCheckModule, PipelineModule], controllers: [MsgcHandler], providers: [MsgcService] })
export class MsgcModule {}
