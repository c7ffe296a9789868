import { AssistantsCallPayload, SUBJECTS, parseOrThrow } from '@gateway/contracts';
import { RpcContext } from '@gateway/platform';
import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { ClaimCheckService } from '../claim-check/claim-check.service';
import { AssistantsService } from './assistants.service';

/** NATS entry point of the assistants pass-through: parses the payload, redeems its body, hands it to the service. */
@Controller()
export class AssistantsHandler {
  constructor(
    private readonly assistants: AssistantsService,
    private readonly claimCheck: ClaimCheckService,
  ) {}

  @MessagePattern(SUBJECTS.chat.oaic.assistants)
  async call(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    const call = parseOrThrow(AssistantsCallPayload, payload);
    const body = call.body === undefined && call.bodyRef === undefined ? undefined : await this.claimCheck.body(call);
    return this.assistants.run({ ...call, body, note: ctx.note }, ctx.signal);
  }
}
