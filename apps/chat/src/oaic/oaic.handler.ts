import { OaicAudioPayload, SUBJECTS, parseOrThrow } from '@gateway/contracts';
import { RpcContext } from '@gateway/platform';
import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { OaicService } from './oaic.service';

const OAIC = SUBJECTS.chat.oaic;

/** NATS entry points of the oaic family; each parses its payload and hands it to the service. */
@Controller()
export class OaicHandler {
  constructor(private readonly oaic: OaicService) {}

  @MessagePattern(OAIC.chat)
  chat(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.oaic.run('chat', payload, ctx.signal, ctx.note);
  }

  @MessagePattern(OAIC.completions)
  completions(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.oaic.run('completions', payload, ctx.signal, ctx.note);
  }

  @MessagePattern(OAIC.responses)
  createResponse(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.oaic.run('responses', payload, ctx.signal, ctx.note);
  }

  @MessagePattern(OAIC.responseGet)
  getResponse(@Payload() payload: unknown) {
    return this.oaic.response(payload);
  }

  @MessagePattern(OAIC.embeddings)
  embeddings(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.oaic.run('embeddings', payload, ctx.signal, ctx.note);
  }

  @MessagePattern(OAIC.moderations)
  moderations(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.oaic.run('moderations', payload, ctx.signal, ctx.note);
  }

  @MessagePattern(OAIC.images)
  images(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.oaic.run('images', payload, ctx.signal, ctx.note);
  }

  @MessagePattern(OAIC.speech)
  speech(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.oaic.run('speech', payload, ctx.signal, ctx.note);
  }

  @MessagePattern(OAIC.transcriptions)
  transcriptions(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.oaic.transcribe('transcriptions', parseOrThrow(OaicAudioPayload, payload), ctx.signal, ctx.note);
  }

  @MessagePattern(OAIC.translations)
  translations(@Payload() payload: unknown, @Ctx() ctx: RpcContext) {
    return this.oaic.transcribe('translations', parseOrThrow(OaicAudioPayload, payload), ctx.signal, ctx.note);
  }
}
