import { bootstrapService, loadEnvOrExit } from '@gateway/platform';
import { StorageEnv } from '@gateway/storage';
import { FilesEnv } from './config/files-env';
import { FilesModule } from './files.module';

void bootstrapService('files', FilesModule.forRoot(loadEnvOrExit(FilesEnv), loadEnvOrExit(StorageEnv)));
