import { Module } from '@nestjs/common';
import { ResponseCacheModule } from '../cache/response-cache.module';
import { ResponsesModule } from '../responses/responses.module';
import { MeteringModule } from '../usage/metering.module';
import { ChatAdmission } from './chat-admission.service';
import { ChatPipeline } from './chat-pipeline.service';
import { FamilyChatService } from './family-chat.service';
import { UpstreamCallService } from './upstream-call.service';

/**
 * The chat pipeline: any public family (oaic, msgc, genc) against any chat protocol (OpenAI, Anthropic,
 * Gemini), with failover, one stream relay and durable usage; and the one upstream call every path uses.
 */
@Module({
  imports: [MeteringModule, ResponsesModule, ResponseCacheModule],
  providers: [UpstreamCallService, ChatPipeline, ChatAdmission, FamilyChatService],
  exports: [UpstreamCallService, ChatPipeline, ChatAdmission, FamilyChatService],
})
export class PipelineModule {}
