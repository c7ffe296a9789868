import { ConsoleQueuesRequest, parseOrThrow, SUBJECTS, type ConsoleQueuePage } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { QueueDepthsService } from './queue-depths.service';

@Controller()
export class QueuesHandler {
  constructor(@Inject(QueueDepthsService) private readonly depths: QueueDepthsService) {}

  @MessagePattern(SUBJECTS.accounts.console.queues)
  page(@Payload() payload: unknown): Promise<ConsoleQueuePage> {
    const { offset, limit } = parseOrThrow(ConsoleQueuesRequest, payload ?? {});
    return this.depths.page(offset, limit);
  }
}
