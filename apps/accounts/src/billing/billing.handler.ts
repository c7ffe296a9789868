import {
  BalanceSeedRequest,
  BILLING_SUBJECTS,
  BillingConfigureMessage,
  BillingProfileRequest,
  parseOrThrow,
  UsageRequestsRequest,
  UsageSummaryRequest,
  type BillingProfile,
  type UsageRequests,
  type UsageSummary,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BillingService } from './billing.service';

@Controller()
export class BillingHandler {
  constructor(@Inject(BillingService) private readonly billing: BillingService) {}

  @MessagePattern(BILLING_SUBJECTS.profile)
  profile(@Payload() payload: unknown): Promise<BillingProfile> {
    return this.billing.profile(parseOrThrow(BillingProfileRequest, payload).tenantId);
  }

  @MessagePattern(BILLING_SUBJECTS.seed)
  seed(@Payload() payload: unknown): Promise<{ micros: string }> {
    return this.billing.seed(parseOrThrow(BalanceSeedRequest, payload).tenantId);
  }

  @MessagePattern(BILLING_SUBJECTS.configure)
  configure(@Payload() payload: unknown) {
    return this.billing.configure(parseOrThrow(BillingConfigureMessage, payload));
  }

  @MessagePattern(BILLING_SUBJECTS.usageSummary)
  usage(@Payload() payload: unknown): Promise<UsageSummary> {
    const request = parseOrThrow(UsageSummaryRequest, payload);
    return this.billing.usageSummary(request.tenant, request.since, request.by, request.until);
  }

  @MessagePattern(BILLING_SUBJECTS.usageRequests)
  usageRequests(@Payload() payload: unknown): Promise<UsageRequests> {
    return this.billing.usageRequests(parseOrThrow(UsageRequestsRequest, payload));
  }
}
