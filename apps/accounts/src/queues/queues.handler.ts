import { RpcHandler } from '@gateway/platform';
import { ConsoleQueuesRequest, parseOrThrow, type ConsoleQueuePage, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { QueueDepthsService } from './queue-depths.service';

@Controller()
export class QueuesHandler {
  constructor(@Inject(QueueDepthsService) private readonly depths: QueueDepthsService) {}

  @RpcHandler(RPCS.accounts.console.queues)
  page(@Payload() payload: unknown): Promise<ConsoleQueuePage> {
    const { offset, limit } = parseOrThrow(ConsoleQueuesRequest, payload ?? {});
    return this.depths.page(offset, limit);
  }
}
