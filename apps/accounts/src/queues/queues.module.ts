// Reads the depths of every service's BullMQ queues for the operator console (the queues live in the shared Redis).
import { Module } from '@nestjs/common';
import { QueueDepthsService } from './queue-depths.service';
import { QueuesHandler } from './queues.handler';

@Module({ controllers: [QueuesHandler], providers: [QueueDepthsService] })
export class QueuesModule {}
