import { bootstrapService } from '@gateway/platform';
import { FilesModule } from './files.module';

void bootstrapService('files', FilesModule);
