import { configureUrlPolicy } from '@gateway/contracts';
import { bootstrapService, loadEnvOrExit } from '@gateway/platform';
import { StorageEnv } from '@gateway/storage';
import { ChatModule } from './chat.module';
import { ChatEnv } from './config/chat-env';

const env = loadEnvOrExit(ChatEnv);
configureUrlPolicy({ allowHosts: env.URL_POLICY_ALLOW_HOSTS });
void bootstrapService('chat', ChatModule.forRoot(env, loadEnvOrExit(StorageEnv)));
