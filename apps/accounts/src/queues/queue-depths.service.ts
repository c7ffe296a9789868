import type { ConsoleQueuePage } from '@gateway/contracts';
import { findQueues, NatsBus, readQueueDepth } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { WALLET_REDIS } from '../billing/wallet.module';

/** BullMQ queue depths of every service in this deployment's namespace (the Redis every service shares), a page at a time. */
@Injectable()
export class QueueDepthsService {
  constructor(
    @Inject(NatsBus) private readonly bus: NatsBus,
    @Inject(WALLET_REDIS) private readonly redis: Redis,
  ) {}

  async page(offset: number, limit: number): Promise<ConsoleQueuePage> {
    const queues = await findQueues(this.redis, this.bus.prefix);
    const now = Date.now();
    const data = await Promise.all(
      queues.slice(offset, offset + limit).map(({ role, queue }) => readQueueDepth(this.redis, this.bus.prefix, role, queue, now)),
    );
    return { data, total: queues.length, offset, limit };
  }
}
