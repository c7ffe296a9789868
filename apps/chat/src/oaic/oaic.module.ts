import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { ClaimCheckModule } from '../claim-check/claim-check.module';
import { ResponsesModule } from '../responses/responses.module';
import { TranslationModule } from '../translation/translation.module';
import { UsageModule } from '../usage/usage.module';
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
  imports: [CatalogModule, ClaimCheckModule, ResponsesModule, UsageModule, TranslationModule],
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
