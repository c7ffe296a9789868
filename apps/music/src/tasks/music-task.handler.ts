import { CONSOLE_DATA_SUBJECTS, MUSIC_SUBJECTS } from '@gateway/contracts';
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

  @MessagePattern(MUSIC_SUBJECTS.create)
  create(@Payload() payload: unknown) {
    return this.tasks.create(payload);
  }

  @MessagePattern(MUSIC_SUBJECTS.query)
  query(@Payload() payload: unknown) {
    return this.tasks.query(payload);
  }

  /** The tenant console's tasks page. */
  @MessagePattern(CONSOLE_DATA_SUBJECTS.tasks.music)
  consoleTasks(@Payload() payload: unknown) {
    return this.console.list(payload);
  }
}
