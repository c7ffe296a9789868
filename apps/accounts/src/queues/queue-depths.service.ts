import type { ConsoleQueuePage } from '@gateway/contracts';
import { findQueues, NatsBus, readQueueDepth } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { WALLET_REDIS } from '../billing/wallet.module';

/** How long the list of queues found by scanning Redis is reused: a scan walks the whole keyspace, counts are read live. */
const DISCOVERY_TTL_MS = 60_000;

/** BullMQ queue depths of every service in this deployment's namespace (the Redis every service shares), a page at a time. */
@Injectable()
export class QueueDepthsService {
  constructor(
    @Inject(NatsBus) private readonly bus: NatsBus,
    @Inject(WALLET_REDIS) private readonly redis: Redis,
  ) {}

  private found: { at: number; queues: Promise<Array<{ role: string; queue: string }>> } | undefined;

  private queues(): Promise<Array<{ role: string; queue: string }>> {
    if (!this.found || Date.now() - this.found.at > DISCOVERY_TTL_MS) {
      const queues = findQueues(this.redis, this.bus.prefix);
      this.found = { at: Date.now(), queues };
      // A failed scan is not kept: the next page asks again.
      queues.catch(() => (this.found = undefined));
    }
    return this.found.queues;
  }

  async page(offset: number, limit: number): Promise<ConsoleQueuePage> {
    const queues = await this.queues();
    const now = Date.now();
    const data = await Promise.all(
      queues.slice(offset, offset + limit).map(({ role, queue }) => readQueueDepth(this.redis, this.bus.prefix, role, queue, now)),
    );
    return { data, total: queues.length, offset, limit };
  }
}
