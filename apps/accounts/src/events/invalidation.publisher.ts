import { InvalidationEvent, SUBJECTS } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';

/** Tells every edge replica (and the chat router) to drop what it cached about keys, tenants or the catalog. */
@Injectable()
export class InvalidationPublisher {
  constructor(@Inject(NatsBus) private readonly bus: NatsBus) {}

  publish(event: z.input<typeof InvalidationEvent>): void {
    this.bus.publish(SUBJECTS.accounts.invalidated, InvalidationEvent.parse(event));
  }
}
