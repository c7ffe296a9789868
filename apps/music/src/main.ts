import { bootstrapService } from '@gateway/platform';
import { MusicModule } from './music.module';

void bootstrapService('music', MusicModule);
