import { BillingClientModule, BillingEnv } from '@gateway/billing';
import { loadEnv } from '@gateway/platform';
import type { StorageEnv } from '@gateway/storage';
import { Module, type DynamicModule } from '@nestjs/common';
import { AssistantsModule } from './assistants/assistants.module';
import { CatalogCacheModule } from './catalog/catalog-cache.module';
import type { ChatEnv } from './config/chat-env';
import { InfraModule } from './config/infra.module';
import { GencModule } from './genc/genc.module';
import { MsgcModule } from './msgc/msgc.module';
import { OaicModule } from './oaic/oaic.module';
import { MeteringModule } from './usage/metering.module';

/** The chat service: model routing and execution for the chat families, stored responses, the assistants pass-through, durable usage. */
@Module({})
export class ChatModule {
  static forRoot(env: ChatEnv, storage: StorageEnv): DynamicModule {
    return {
      module: ChatModule,
      imports: [
        InfraModule.forRoot(env, storage),
        BillingClientModule.forRoot(loadEnv(BillingEnv)),
        CatalogCacheModule,
        MeteringModule,
        OaicModule,
        MsgcModule,
        GencModule,
        AssistantsModule,
      ],
    };
  }
}
