import { Module } from '@nestjs/common';
import { UsageModule } from '../usage/usage.module';
import { ChatExecutionService } from './chat-execution.service';
import { ChatUpstreamService } from './chat-upstream.service';

/**
 * Cross-family chat execution: any public family (oaic, msgc, genc) against any chat protocol (OpenAI,
 * Anthropic, Gemini), through the providers' IR, with failover and durable usage.
 */
@Module({ imports: [UsageModule], providers: [ChatUpstreamService, ChatExecutionService], exports: [ChatExecutionService] })
export class TranslationModule {}
