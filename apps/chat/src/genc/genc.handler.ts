import { SUBJECTS } from '@gateway/contracts';
import { RpcContext } from '@gateway/platform';
import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { GencService } from './genc.service';

/** NATS entry point of the genc family (unary and streamed alike; the payload says which). */
@Controller()
export class GencHandler {
  constructor(private readonly genc: GencService) {}

  @MessagePattern(SUBJECTS.chat.genc.generate)
  generate(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.genc.generate(payload, ctx.signal, ctx.note);
  }
}
