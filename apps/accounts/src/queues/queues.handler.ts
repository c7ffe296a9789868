import { CONSOLE_OPERATOR_SUBJECTS, ConsoleQueuesRequest, parseOrThrow, type ConsoleQueuePage } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { QueueDepthsService } from './queue-depths.service';

@Controller()
export class QueuesHandler {
  constructor(@Inject(QueueDepthsService) private readonly depths: QueueDepthsService) {}

  @MessagePattern(CONSOLE_OPERATOR_SUBJECTS.queues)
  page(@Payload() payload: unknown): Promise<ConsoleQueuePage> {
    const { offset, limit } = parseOrThrow(ConsoleQueuesRequest, payload ?? {});
    return this.depths.page(offset, limit);
  }
}
