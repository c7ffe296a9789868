import { RpcHandler } from '@gateway/platform';
import { SUBJECTS, RPCS } from '@gateway/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MusicConsoleService } from './music-console.service';
import { MusicTaskService } from './music-task.service';

/** NATS entry points of music task creation and queries; the service parses each payload. */
@Controller()
export class MusicTaskHandler {
  constructor(
    private readonly tasks: MusicTaskService,
    private readonly console: MusicConsoleService,
  ) {}

  @MessagePattern(SUBJECTS.music.create)
  create(@Payload() payload: unknown) {
    return this.tasks.create(payload);
  }

  @MessagePattern(SUBJECTS.music.query)
  query(@Payload() payload: unknown) {
    return this.tasks.query(payload);
  }

  /** The tenant console's tasks page. */
  @RpcHandler(RPCS.music.console.tasks)
  consoleTasks(@Payload() payload: unknown) {
    return this.console.list(payload);
  }
}
