import { configureUrlPolicy } from '@gateway/contracts';
import { bootstrapService, loadEnvOrExit } from '@gateway/platform';
import { StorageEnv } from '@gateway/storage';
import { MediaEnv } from './config/media-env';
import { MediaModule } from './media.module';

const env = loadEnvOrExit(MediaEnv);
configureUrlPolicy({ allowHosts: env.URL_POLICY_ALLOW_HOSTS });
void bootstrapService('media', MediaModule.forRoot(env, loadEnvOrExit(StorageEnv)));
