import { bootstrapService, loadEnvOrExit } from '@gateway/platform';
import { StorageEnv } from '@gateway/storage';
import { ChatModule } from './chat.module';
import { ChatEnv } from './config/chat-env';

void bootstrapService('chat', ChatModule.forRoot(loadEnvOrExit(ChatEnv), loadEnvOrExit(StorageEnv)));
