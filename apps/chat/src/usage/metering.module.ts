import { Module } from '@nestjs/common';
import { MeteringService } from './metering.service';
import { UsagePublisher } from './usage.publisher';

/** Durable usage: each request's event goes to JetStream; the accounts service writes the rows. */
@Module({ providers: [UsagePublisher, MeteringService], exports: [MeteringService, UsagePublisher] })
export class MeteringModule {}
