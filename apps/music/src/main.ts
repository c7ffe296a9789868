import { configureUrlPolicy } from '@gateway/contracts';
import { bootstrapService, loadEnvOrExit } from '@gateway/platform';
import { StorageEnv } from '@gateway/storage';
import { MusicEnv } from './config/music-env';
import { MusicModule } from './music.module';

const env = loadEnvOrExit(MusicEnv);
configureUrlPolicy({ allowHosts: env.URL_POLICY_ALLOW_HOSTS });
void bootstrapService('music', MusicModule.forRoot(env, loadEnvOrExit(StorageEnv)));
