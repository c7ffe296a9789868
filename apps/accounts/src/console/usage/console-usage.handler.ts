import { RpcHandler } from '@gateway/platform';
import {
  ConsoleChargesMessage,
  ConsoleOverviewMessage,
  ConsoleUsageMessage,
  ConsoleUsageRecordMessage,
  ConsoleUsageRecordsMessage,
  parseOrThrow,
  RPCS,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConsoleUsageService } from './console-usage.service';

/** The tenant console's usage subjects: overview, grouped summary, records page by page, one record, charges. */
@Controller()
export class ConsoleUsageHandler {
  constructor(@Inject(ConsoleUsageService) private readonly usage: ConsoleUsageService) {}

  @RpcHandler(RPCS.accounts.console.usage.overview)
  overview(@Payload() payload: unknown) {
    const { tenant, days } = parseOrThrow(ConsoleOverviewMessage, payload);
    return this.usage.overview(tenant, days);
  }

  @RpcHandler(RPCS.accounts.console.usage.summary)
  summary(@Payload() payload: unknown) {
    return this.usage.summary(parseOrThrow(ConsoleUsageMessage, payload));
  }

  @RpcHandler(RPCS.accounts.console.usage.records)
  records(@Payload() payload: unknown) {
    return this.usage.records(parseOrThrow(ConsoleUsageRecordsMessage, payload));
  }

  @RpcHandler(RPCS.accounts.console.usage.record)
  record(@Payload() payload: unknown) {
    const { tenant, requestId } = parseOrThrow(ConsoleUsageRecordMessage, payload);
    return this.usage.record(tenant, requestId);
  }

  @RpcHandler(RPCS.accounts.console.charges)
  async charges(@Payload() payload: unknown) {
    const { tenantId, requestIds, subjectIds } = parseOrThrow(ConsoleChargesMessage, payload);
    return { data: await this.usage.charges(tenantId, requestIds, subjectIds) };
  }
}
