// Owns usage records: the durable consumer of the chat service's usage events (rows, and the billing
// holds each event ends) and the only writer of usage_records.
import { Module } from '@nestjs/common';
import { UsageConsumer } from './usage.consumer';
import { UsageRepository } from './usage.repository';

@Module({ providers: [UsageRepository, UsageConsumer] })
export class UsageModule {}
