import type { OaicAudioPayload, ReplyNote } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { ChatExecutionService } from '../translation/chat-execution.service';
import { oaicChatCall, oaicChatNeedsTranslation } from '../translation/oaic-chat-call';
import { UsageMeter } from '../usage/usage-meter';
import { MeteringService } from '../usage/metering.service';
import { OaicAudioService } from './oaic-audio.service';
import { OaicJsonService } from './oaic-json.service';
import { OaicMediaImagesService } from './oaic-media-images.service';
import type { JsonOperation } from './oaic-operation';
import { OaicRequestService } from './oaic-request.service';
import { OaicViaChatService } from './oaic-via-chat.service';
import { OaicStreamService } from './oaic-stream.service';

const FAMILY = 'oaic';

/**
 * Runs one oaic request: prepare (body, model, channels), then the unary, streamed or audio path.
 * Its usage lifecycle starts here, so any failure before an answer is still recorded, with its outcome
 * and status, and one after an answer was metered adds nothing.
 */
@Injectable()
export class OaicService {
  constructor(
    private readonly requests: OaicRequestService,
    private readonly json: OaicJsonService,
    private readonly streams: OaicStreamService,
    private readonly audio: OaicAudioService,
    private readonly metering: MeteringService,
    private readonly translated: ChatExecutionService,
    private readonly viaChat: OaicViaChatService,
    private readonly mediaImages: OaicMediaImagesService,
  ) {}

  /** `note` (the reply's) is told the request's model, channel and tokens when its usage is recorded. */
  async run(op: JsonOperation, payload: unknown, signal: AbortSignal, note?: ReplyNote): Promise<unknown> {
    const caller = this.requests.parseCaller(payload);
    const metered = this.metering.start(new UsageMeter(caller, FAMILY), note);
    try {
      const call = await this.requests.prepare(op, caller, metered);
      if (call.op === 'speech') return await this.audio.speech(call, signal);
      if (call.op === 'images' && call.mediaTask) return await this.mediaImages.generate(call, call.mediaTask.origin);
      if (call.op === 'chat' || call.op === 'completions' || call.op === 'responses') {
        // A channel of another protocol: chat goes through the IR, completions and responses are answered as chat.
        if (oaicChatNeedsTranslation(call.channels)) {
          if (call.op === 'chat') return await this.translated.execute(oaicChatCall(call), signal);
          return await (call.op === 'completions' ? this.viaChat.completions(call, signal) : this.viaChat.responses(call, signal));
        }
        if (call.body.stream === true) return await this.streams.open(call, signal);
      }
      return await this.json.execute(call, signal);
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
}
