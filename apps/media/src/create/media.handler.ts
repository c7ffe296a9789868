import { CONSOLE_DATA_SUBJECTS, MEDIA_SUBJECTS } from '@gateway/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MediaImageSyncService } from './image-sync.service';
import { MediaConsoleService } from './media-console.service';
import { MediaCreateService } from './media-create.service';
import { MediaQueryService } from './media-query.service';

/** NATS entry points of the media api role; each hands its payload to the service, which parses it. */
@Controller()
export class MediaHandler {
  constructor(
    private readonly creates: MediaCreateService,
    private readonly queries: MediaQueryService,
    private readonly images: MediaImageSyncService,
    private readonly console: MediaConsoleService,
  ) {}

  @MessagePattern(MEDIA_SUBJECTS.create)
  create(@Payload() payload: unknown) {
    return this.creates.create(payload);
  }

  @MessagePattern(MEDIA_SUBJECTS.imageGenerate)
  generateImages(@Payload() payload: unknown) {
    return this.images.generate(payload);
  }

  @MessagePattern(MEDIA_SUBJECTS.get)
  get(@Payload() payload: unknown) {
    return this.queries.get(payload);
  }

  @MessagePattern(MEDIA_SUBJECTS.content)
  content(@Payload() payload: unknown) {
    return this.queries.content(payload);
  }

  /** The tenant console's tasks page. */
  @MessagePattern(CONSOLE_DATA_SUBJECTS.tasks.media)
  consoleTasks(@Payload() payload: unknown) {
    return this.console.list(payload);
  }
}
