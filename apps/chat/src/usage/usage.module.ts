import { Module } from '@nestjs/common';
import { UsageConsumer } from './usage.consumer';
import { UsagePublisher } from './usage.publisher';
import { UsageRepository } from './usage.repository';

/** Durable usage: publish per request to JetStream, write rows from a durable consumer. */
@Module({ providers: [UsagePublisher, UsageConsumer, UsageRepository], exports: [UsagePublisher] })
export class UsageModule {}
