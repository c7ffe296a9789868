import { RpcHandler } from '@gateway/platform';
import { parseOrThrow, SubscriptionSetRequest, type SubscriptionView, RPCS } from '@gateway/contracts';
import type { z } from 'zod';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { SubscriptionsService } from './subscriptions.service';

@Controller()
export class SubscriptionsHandler {
  constructor(@Inject(SubscriptionsService) private readonly subscriptions: SubscriptionsService) {}

  @RpcHandler(RPCS.accounts.subscriptions.set)
  set(@Payload() payload: unknown): Promise<z.infer<typeof SubscriptionView>> {
    const request = parseOrThrow(SubscriptionSetRequest, payload);
    return this.subscriptions.setExpiry(request.tenant, request.expires);
  }
}
