import { parseOrThrow, SUBJECTS, SubscriptionSetRequest, type SubscriptionView } from '@gateway/contracts';
import type { z } from 'zod';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SubscriptionsService } from './subscriptions.service';

@Controller()
export class SubscriptionsHandler {
  constructor(@Inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService) {}

  @MessagePattern(SUBJECTS.accounts.subscriptions.set)
  set(@Payload() payload: unknown): Promise<z.infer<typeof SubscriptionView>> {
    const request = parseOrThrow(SubscriptionSetRequest, payload);
    return this.subscriptions.setExpiry(request.tenant, request.expires);
  }
}
