import { bootstrapService } from '@gateway/platform';
import { MediaModule } from './media.module';

void bootstrapService('media', MediaModule);
