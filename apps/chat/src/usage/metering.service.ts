import { Injectable } from '@nestjs/common';
import { MeteredStream, type MeasureUsage } from './metered-stream';
import type { UsageMeter } from './usage-meter';
import { UsagePublisher } from './usage.publisher';

/** Starts the usage lifecycle of a request, recording into the durable usage stream. */
@Injectable()
export class MeteringService {
  constructor(private readonly publisher: UsagePublisher) {}

  /** `measure` says what the request has used when it ends; without it, the meter's tokens stand as set. */
  start(meter: UsageMeter, measure?: MeasureUsage): MeteredStream {
    return new MeteredStream(meter, this.publisher, measure);
  }

  /** A request that failed before any answer reached the client. */
  recordFailure(meter: UsageMeter, error: unknown): void {
    this.start(meter).fail(error);
  }
}
