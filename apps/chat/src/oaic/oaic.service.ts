import { ResponseGetPayload, parseOrThrow, type OaicAudioPayload, type ReplyNote } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { ResponseCacheService } from '../cache/response-cache.service';
import { ChatPipeline } from '../pipeline/chat-pipeline.service';
import { ResponsesService } from '../responses/responses.service';
import { MeteringService } from '../usage/metering.service';
import { UsageMeter } from '../usage/usage-meter';
import { OaicAudioService } from './oaic-audio.service';
import { OaicMediaImagesService } from './oaic-media-images.service';
import { OaicOperationsService } from './oaic-operations.service';
import { OaicRequestService, type JsonOperation } from './oaic-request.service';
import { OaicSpeechService } from './oaic-speech.service';

const FAMILY = 'oaic';

/**
 * Runs one oaic request: prepare (body, model, channels), then the chat pipeline for chat, completions
 * and responses, or the operation's own path. Its usage lifecycle starts here, so any failure before an
 * answer is still recorded, with its outcome and status, and one after an answer was metered adds nothing.
 */
@Injectable()
export class OaicService {
  constructor(
    private readonly requests: OaicRequestService,
    private readonly operations: OaicOperationsService,
    private readonly speech: OaicSpeechService,
    private readonly audio: OaicAudioService,
    private readonly metering: MeteringService,
    private readonly responses: ResponsesService,
    private readonly pipeline: ChatPipeline,
    private readonly mediaImages: OaicMediaImagesService,
    private readonly cache: ResponseCacheService,
  ) {}

  /** `note` (the reply's) is told the request's model, channel and tokens when its usage is recorded. */
  async run(op: JsonOperation, payload: unknown, signal: AbortSignal, note?: ReplyNote): Promise<unknown> {
    const caller = this.requests.parseCaller(payload);
    const metered = this.metering.start(new UsageMeter(caller, FAMILY), note);
    try {
      const call = await this.requests.prepare(op, caller, metered, note);
      switch (call.op) {
        case 'chat':
        case 'completions':
        case 'responses':
          if (call.cacheHit) {
            const hit = { family: FAMILY, caller, model: call.route.model, modelId: call.modelId, stream: call.stream === true, metered } as const;
            return await this.cache.serve(call.cacheHit, hit);
          }
          return await this.pipeline.oaic(call, signal, call.cachePlan);
        case 'speech':
          return await this.speech.create(call, signal);
        case 'images':
          if (call.mediaTask) return await this.mediaImages.generate(call, call.mediaTask.origin);
          return await this.operations.execute(call, signal);
        default:
          return await this.operations.execute(call, signal);
      }
    } catch (error) {
      metered.fail(error);
      throw error;
    }
  }

  async transcribe(op: 'transcriptions' | 'translations', payload: OaicAudioPayload, signal: AbortSignal, note?: ReplyNote): Promise<unknown> {
    const metered = this.metering.start(new UsageMeter(payload, FAMILY), note);
    try {
      return await this.audio.transcribe(op, payload, metered, signal);
    } catch (error) {
      metered.fail(error);
      throw error;
    }
  }

  /** A stored response of the caller's tenant. */
  response(payload: unknown): Promise<Record<string, unknown>> {
    const { tenantId, responseId } = parseOrThrow(ResponseGetPayload, payload);
    return this.responses.get(tenantId, responseId);
  }
}
