import type { ReplyNote } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { MeteredStream } from './metered-stream';
import type { UsageMeter } from './usage-meter';
import { UsagePublisher } from './usage.publisher';

/** Starts the usage lifecycle of a request as it arrives, recording into the durable usage stream. */
@Injectable()
export class MeteringService {
  constructor(private readonly publisher: UsagePublisher) {}

  /** `note`, the reply's, is told how the request was served when its usage is recorded. */
  start(meter: UsageMeter, note?: ReplyNote): MeteredStream {
    return new MeteredStream(meter, this.publisher, note);
  }
}
