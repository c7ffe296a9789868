import { Injectable } from '@nestjs/common';
import { MeteredStream } from './metered-stream';
import type { UsageMeter } from './usage-meter';
import { UsagePublisher } from './usage.publisher';

/** Starts the usage lifecycle of a request as it arrives, recording into the durable usage stream. */
@Injectable()
export class MeteringService {
  constructor(private readonly publisher: UsagePublisher) {}

  start(meter: UsageMeter): MeteredStream {
    return new MeteredStream(meter, this.publisher);
  }
}
