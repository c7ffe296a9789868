import { RpcHandler } from '@gateway/platform';
import { ConsoleTenantsRequest, parseOrThrow, TenantCreateRequest, TenantGetRequest, type ConsoleTenantPage, type TenantView, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { TenantsService } from './tenants.service';

@Controller()
export class TenantsHandler {
  constructor(@Inject(TenantsService) private readonly tenants: TenantsService) {}

  @RpcHandler(RPCS.accounts.tenants.create)
  create(@Payload() payload: unknown): Promise<TenantView> {
    return this.tenants.create(parseOrThrow(TenantCreateRequest, payload));
  }

  @RpcHandler(RPCS.accounts.tenants.get)
  get(@Payload() payload: unknown): Promise<TenantView> {
    return this.tenants.get(parseOrThrow(TenantGetRequest, payload).slug);
  }

  @RpcHandler(RPCS.accounts.console.tenants)
  page(@Payload() payload: unknown): Promise<ConsoleTenantPage> {
    return this.tenants.page(parseOrThrow(ConsoleTenantsRequest, payload));
  }
}
