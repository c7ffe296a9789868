import { RpcHandler } from '@gateway/platform';
import { SUBJECTS, RPCS } from '@gateway/contracts';
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

  @MessagePattern(SUBJECTS.media.create)
  create(@Payload() payload: unknown) {
    return this.creates.create(payload);
  }

  @MessagePattern(SUBJECTS.media.imageGenerate)
  generateImages(@Payload() payload: unknown) {
    return this.images.generate(payload);
  }

  @MessagePattern(SUBJECTS.media.get)
  get(@Payload() payload: unknown) {
    return this.queries.get(payload);
  }

  @MessagePattern(SUBJECTS.media.content)
  content(@Payload() payload: unknown) {
    return this.queries.content(payload);
  }

  /** The tenant console's tasks page. */
  @RpcHandler(RPCS.media.console.tasks)
  consoleTasks(@Payload() payload: unknown) {
    return this.console.list(payload);
  }
}
