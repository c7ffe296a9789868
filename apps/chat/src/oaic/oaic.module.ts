import { Module } from '@nestjs/common';
import { ClaimCheckModule } from '../claim-check/claim-check.module';
import { ResponsesModule } from '../responses/responses.module';
import { TranslationModule } from '../translation/translation.module';
import { MeteringModule } from '../usage/metering.module';
import { OaicAudioService } from './oaic-audio.service';
import { OaicHandler } from './oaic.handler';
import { OaicJsonService } from './oaic-json.service';
import { OaicMediaImagesService } from './oaic-media-images.service';
import { OaicRequestService } from './oaic-request.service';
import { OaicService } from './oaic.service';
import { OaicStreamService } from './oaic-stream.service';
import { OaicViaChatService } from './oaic-via-chat.service';
import { UpstreamCallService } from './upstream-call.service';

/** The oaic family in the chat service: routing to channels, failover, unary/stream/audio execution. */
@Module({
  imports: [ClaimCheckModule, ResponsesModule, MeteringModule, TranslationModule],
  controllers: [OaicHandler],
  providers: [
    OaicService,
    OaicRequestService,
    OaicJsonService,
    OaicStreamService,
    OaicAudioService,
    OaicViaChatService,
    UpstreamCallService,
    OaicMediaImagesService,
  ],
})
export class OaicModule {}
