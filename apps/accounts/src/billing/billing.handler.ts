import { RpcHandler } from '@gateway/platform';
import {
  BalanceSeedRequest,
  BillingConfigureMessage,
  BillingProfileRequest,
  parseOrThrow,
  SUBJECTS,
  UsageRequestsRequest,
  UsageSummaryRequest,
  type BillingProfile,
  type UsageRequests,
  type UsageSummary,
  RPCS,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BillingService } from './billing.service';

@Controller()
export class BillingHandler {
  constructor(@Inject(BillingService) private readonly billing: BillingService) {}

  @RpcHandler(RPCS.accounts.billing.profile)
  profile(@Payload() payload: unknown): Promise<BillingProfile> {
    return this.billing.profile(parseOrThrow(BillingProfileRequest, payload).tenantId);
  }

  @MessagePattern(SUBJECTS.accounts.billing.seed)
  seed(@Payload() payload: unknown): Promise<{ micros: string }> {
    return this.billing.seed(parseOrThrow(BalanceSeedRequest, payload).tenantId);
  }

  @RpcHandler(RPCS.accounts.billing.configure)
  configure(@Payload() payload: unknown) {
    return this.billing.configure(parseOrThrow(BillingConfigureMessage, payload));
  }

  @RpcHandler(RPCS.accounts.billing.usageSummary)
  usage(@Payload() payload: unknown): Promise<UsageSummary> {
    const request = parseOrThrow(UsageSummaryRequest, payload);
    return this.billing.usageSummary(request.tenant, request.since, request.by, request.until);
  }

  @RpcHandler(RPCS.accounts.billing.usageRequests)
  usageRequests(@Payload() payload: unknown): Promise<UsageRequests> {
    return this.billing.usageRequests(parseOrThrow(UsageRequestsRequest, payload));
  }
}
