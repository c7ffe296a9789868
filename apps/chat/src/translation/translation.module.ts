import { Module } from '@nestjs/common';
import { MeteringModule } from '../usage/metering.module';
import { ChatExecutionService } from './chat-execution.service';
import { ChatUpstreamService } from './chat-upstream.service';
import { FamilyChatService } from './family-chat.service';

/**
 * Cross-family chat execution: any public family (oaic, msgc, genc) against any chat protocol (OpenAI,
 * Anthropic, Gemini), through the providers' IR, with failover and durable usage.
 */
@Module({
  imports: [MeteringModule],
  providers: [ChatUpstreamService, ChatExecutionService, FamilyChatService],
  exports: [ChatExecutionService, FamilyChatService],
})
export class TranslationModule {}
