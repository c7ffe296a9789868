import { RpcHandler } from '@gateway/platform';
import { OidcBeginRequest, OidcCompleteRequest, OidcConfigureRequest, OidcShowRequest, parseOrThrow, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { OidcService } from './oidc.service';

@Controller()
export class OidcHandler {
  constructor(@Inject(OidcService) private readonly oidc: OidcService) {}

  @RpcHandler(RPCS.accounts.console.oidc.configure)
  configure(@Payload() payload: unknown) {
    return this.oidc.configure(parseOrThrow(OidcConfigureRequest, payload));
  }

  @RpcHandler(RPCS.accounts.console.oidc.show)
  show(@Payload() payload: unknown) {
    return this.oidc.show(parseOrThrow(OidcShowRequest, payload).tenant);
  }

  @RpcHandler(RPCS.accounts.console.oidc.begin)
  begin(@Payload() payload: unknown) {
    const request = parseOrThrow(OidcBeginRequest, payload);
    return this.oidc.begin(request.tenant, request.redirectUri);
  }

  @RpcHandler(RPCS.accounts.console.oidc.complete)
  complete(@Payload() payload: unknown) {
    return this.oidc.complete(parseOrThrow(OidcCompleteRequest, payload));
  }
}
