import { SUBJECTS } from '@gateway/contracts';
import { RpcContext } from '@gateway/platform';
import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { MsgcService } from './msgc.service';

const MSGC = SUBJECTS.chat.msgc;

/** NATS entry points of the msgc family; the service parses each payload. */
@Controller()
export class MsgcHandler {
  constructor(private readonly msgc: MsgcService) {}

  @MessagePattern(MSGC.messages)
  messages(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.msgc.messages(payload, ctx.signal, ctx.note);
  }

  @MessagePattern(MSGC.countTokens)
  countTokens(@Payload() payload: unknown) {
    return this.msgc.countTokens(payload);
  }
}
