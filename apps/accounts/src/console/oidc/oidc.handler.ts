import { CONSOLE_SUBJECTS, OidcBeginRequest, OidcCompleteRequest, OidcConfigureRequest, OidcShowRequest, parseOrThrow } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { OidcService } from './oidc.service';

@Controller()
export class OidcHandler {
  constructor(@Inject(OidcService) private readonly oidc: OidcService) {}

  @MessagePattern(CONSOLE_SUBJECTS.oidc.configure)
  configure(@Payload() payload: unknown) {
    return this.oidc.configure(parseOrThrow(OidcConfigureRequest, payload));
  }

  @MessagePattern(CONSOLE_SUBJECTS.oidc.show)
  show(@Payload() payload: unknown) {
    return this.oidc.show(parseOrThrow(OidcShowRequest, payload).tenant);
  }

  @MessagePattern(CONSOLE_SUBJECTS.oidc.begin)
  begin(@Payload() payload: unknown) {
    const request = parseOrThrow(OidcBeginRequest, payload);
    return this.oidc.begin(request.tenant, request.redirectUri);
  }

  @MessagePattern(CONSOLE_SUBJECTS.oidc.complete)
  complete(@Payload() payload: unknown) {
    return this.oidc.complete(parseOrThrow(OidcCompleteRequest, payload));
  }
}
