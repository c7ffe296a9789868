import { BillingClientModule, BillingEnv } from '@gateway/billing';
import { loadEnv } from '@gateway/platform';
import { ServiceInfraModule } from '@gateway/platform/infra';
import type { StorageEnv } from '@gateway/storage';
import { Module, type DynamicModule } from '@nestjs/common';
import { AssistantsModule } from './assistants/assistants.module';
import { ResponseCacheModule } from './cache/response-cache.module';
import { CHAT_ENV, type ChatEnv } from './config/chat-env';
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
        ServiceInfraModule.forRoot({
          service: 'chat',
          env: { token: CHAT_ENV, value: env },
          databaseUrl: env.DATABASE_URL,
          storage,
          // Claim checks of requests and of replies too large for one NATS message.
          redis: { connection: env, replyClaims: true },
          catalogTtlSeconds: env.CATALOG_TTL_SECONDS,
        }),
        BillingClientModule.forRoot(loadEnv(BillingEnv)),
        MeteringModule,
        OaicModule,
        MsgcModule,
        GencModule,
        AssistantsModule,
        ResponseCacheModule,
      ],
    };
  }
}
