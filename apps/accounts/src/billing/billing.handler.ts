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
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BillingService } from './billing.service';

@Controller()
export class BillingHandler {
  constructor(@Inject(BillingService) private readonly billing: BillingService) {}

  @MessagePattern(SUBJECTS.accounts.billing.profile)
  profile(@Payload() payload: unknown): Promise<BillingProfile> {
    return this.billing.profile(parseOrThrow(BillingProfileRequest, payload).tenantId);
  }

  @MessagePattern(SUBJECTS.accounts.billing.seed)
  seed(@Payload() payload: unknown): Promise<{ micros: string }> {
    return this.billing.seed(parseOrThrow(BalanceSeedRequest, payload).tenantId);
  }

  @MessagePattern(SUBJECTS.accounts.billing.configure)
  configure(@Payload() payload: unknown) {
    return this.billing.configure(parseOrThrow(BillingConfigureMessage, payload));
  }

  @MessagePattern(SUBJECTS.accounts.billing.usageSummary)
  usage(@Payload() payload: unknown): Promise<UsageSummary> {
    const request = parseOrThrow(UsageSummaryRequest, payload);
    return this.billing.usageSummary(request.tenant, request.since, request.by, request.until);
  }

  @MessagePattern(SUBJECTS.accounts.billing.usageRequests)
  usageRequests(@Payload() payload: unknown): Promise<UsageRequests> {
    return this.billing.usageRequests(parseOrThrow(UsageRequestsRequest, payload));
  }
}
