import type { CompletionRequest, OaicAudioPayload } from '@gateway/contracts';
import { chatAnswerAsCompletion, ChatStreamAsCompletions, completionAsChatRequest, FailoverError } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { ChatExecutionService } from '../translation/chat-execution.service';
import { oaicChatCall, oaicChatNeedsTranslation } from '../translation/oaic-chat-call';
import { UsageMeter } from '../usage/usage-meter';
import { UsagePublisher } from '../usage/usage.publisher';
import { OaicAudioService } from './oaic-audio.service';
import { OaicJsonService } from './oaic-json.service';
import type { JsonOperation } from './oaic-operation';
import { OaicRequestService, type PreparedCall } from './oaic-request.service';
import { OaicStreamService } from './oaic-stream.service';

const FAMILY = 'oaic';

async function* completionChunks(chat: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  const rewrite = new ChatStreamAsCompletions();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  for await (const bytes of chat) {
    const out = rewrite.push(decoder.decode(bytes, { stream: true }));
    if (out !== '') yield encoder.encode(out);
  }
}

/**
 * Runs one oaic request: prepare (body, model, channels), then the unary, streamed or audio path.
 * Any failure before an answer is still recorded as usage, with its outcome and status.
 */
@Injectable()
export class OaicService {
  constructor(
    private readonly requests: OaicRequestService,
    private readonly json: OaicJsonService,
    private readonly streams: OaicStreamService,
    private readonly audio: OaicAudioService,
    private readonly usage: UsagePublisher,
    private readonly translated: ChatExecutionService,
  ) {}

  async run(op: JsonOperation, payload: unknown, signal: AbortSignal): Promise<unknown> {
    const caller = this.requests.parseCaller(payload);
    const meter = new UsageMeter(caller, FAMILY);
    try {
      const call = await this.requests.prepare(op, caller, meter);
      if (op === 'speech') return await this.audio.speech(call, signal);
      if (op === 'chat' && oaicChatNeedsTranslation(call.channels)) return await this.translated.execute(oaicChatCall(call), signal);
      if (op === 'completions' && oaicChatNeedsTranslation(call.channels)) return await this.completionsAsChat(call, signal);
      if ((op === 'chat' || op === 'completions' || op === 'responses') && call.body.stream === true) return await this.streams.open(op, call, signal);
      return await this.json.execute(op, call, signal);
    } catch (error) {
      await this.recordFailure(meter, error);
      throw error;
    }
  }

  async transcribe(op: 'transcriptions' | 'translations', payload: OaicAudioPayload, signal: AbortSignal): Promise<unknown> {
    const meter = new UsageMeter(payload, FAMILY);
    try {
      return await this.audio.transcribe(op, payload, meter, signal);
    } catch (error) {
      await this.recordFailure(meter, error);
      throw error;
    }
  }

  /**
   * Completions for a model with an upstream that has no completions endpoint: the prompt goes out as a
   * chat request (through the IR where the protocol differs) and the answer comes back as text_completion.
   */
  private async completionsAsChat(call: PreparedCall, signal: AbortSignal): Promise<unknown> {
    const body = completionAsChatRequest(call.body as CompletionRequest) as Record<string, unknown>;
    const answer = await this.translated.execute(oaicChatCall({ ...call, body }), signal);
    return Symbol.asyncIterator in answer ? completionChunks(answer) : chatAnswerAsCompletion(answer);
  }

  /** A failure is recorded too, naming the last channel tried when every channel failed. */
  private async recordFailure(meter: UsageMeter, error: unknown): Promise<void> {
    if (error instanceof FailoverError && error.attempts.length > 0) meter.channelId = error.attempts[error.attempts.length - 1]!.channelId;
    this.usage.record(meter.failed(error));
  }
}
