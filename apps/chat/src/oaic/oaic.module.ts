import { Module } from '@nestjs/common';
import { ResponseCacheModule } from '../cache/response-cache.module';
import { ClaimCheckModule } from '../claim-check/claim-check.module';
import { PipelineModule } from '../pipeline/pipeline.module';
import { ResponsesModule } from '../responses/responses.module';
import { MeteringModule } from '../usage/metering.module';
import { OaicAudioService } from './oaic-audio.service';
import { OaicMediaImagesService } from './oaic-media-images.service';
import { OaicOperationsService } from './oaic-operations.service';
import { OaicRequestService } from './oaic-request.service';
import { OaicSpeechService } from './oaic-speech.service';
import { OaicHandler } from './oaic.handler';
import { OaicService } from './oaic.service';

/** The oaic family in the chat service: chat, completions and responses through the chat pipeline; the other operations beside it. */
@Module({
  imports: [ClaimCheckModule, ResponsesModule, MeteringModule, PipelineModule, ResponseCacheModule],
  controllers: [OaicHandler],
  providers: [OaicService, OaicRequestService, OaicOperationsService, OaicSpeechService, OaicAudioService, OaicMediaImagesService],
})
export class OaicModule {}
