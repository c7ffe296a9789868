import { Module } from '@nestjs/common';
import { UsagePublisher } from './usage.publisher';

/** Durable usage: each request's event goes to JetStream; the accounts service writes the rows. */
@Module({ providers: [UsagePublisher], exports: [UsagePublisher] })
export class UsageModule {}
