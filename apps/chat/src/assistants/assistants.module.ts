import { Module } from '@nestjs/common';
import { ClaimCheckModule } from '../claim-check/claim-check.module';
import { PipelineModule } from '../pipeline/pipeline.module';
import { MeteringModule } from '../usage/metering.module';
import { AssistantObjectsRepository } from './assistant-objects.repository';
import { AssistantStorage } from './assistant-storage';
import { AssistantsHandler } from './assistants.handler';
import { AssistantsRouting } from './assistants-routing.service';
import { AssistantsService } from './assistants.service';
import { AssistantsUpstream } from './assistants-upstream';
import { RunBilling } from './run-billing';
import { RunSweeper } from './run-sweeper';
import { RunsService } from './runs.service';

/**
 * The assistants pass-through (assistants, threads, messages, runs) to OpenAI-protocol channels flagged
 * for it: who owns each upstream id and where it lives, and what runs use, billed even when nobody asks
 * about a run again (RunSweeper).
 */
@Module({
  imports: [ClaimCheckModule, MeteringModule, PipelineModule],
  controllers: [AssistantsHandler],
  providers: [AssistantsService, RunsService, AssistantsRouting, AssistantsUpstream, AssistantObjectsRepository, AssistantStorage, RunBilling, RunSweeper],
})
export class AssistantsModule {}
