import type { ChatCompletionRequest } from '@gateway/contracts';
import {
  chatAnswerAsCompletion,
  chatAnswerAsResponse,
  ChatStreamAsCompletions,
  ChatStreamAsResponseEvents,
  completionAsChatRequest,
  responseAsChatRequest,
  type ResponseOrigin,
} from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { ResponsesService } from '../responses/responses.service';
import { ChatExecutionService } from '../translation/chat-execution.service';
import { oaicChatCall } from '../translation/oaic-chat-call';
import type { PreparedCall } from './oaic-request.service';

const encoder = new TextEncoder();

type ChatAnswer = Record<string, unknown> | AsyncGenerator<Uint8Array>;

/**
 * Completions and responses for models with an upstream that has no such endpoint: the request goes out
 * as chat (through the IR where the protocol differs) and the answer comes back in the route's own shape,
 * whole or streamed. A response is stored for retrieval like any other, before its last event is sent.
 */
@Injectable()
export class OaicViaChatService {
  constructor(
    private readonly chat: ChatExecutionService,
    private readonly records: ResponsesService,
  ) {}

  async completions(call: PreparedCall<'completions'>, signal: AbortSignal): Promise<unknown> {
    const answer = await this.run(call, completionAsChatRequest(call.body), signal);
    if (!(Symbol.asyncIterator in answer)) return chatAnswerAsCompletion(answer);
    const rewrite = new ChatStreamAsCompletions();
    return this.rewritten(answer, (text) => rewrite.push(text));
  }

  async responses(call: PreparedCall<'responses'>, signal: AbortSignal): Promise<unknown> {
    const request = call.body;
    const origin: ResponseOrigin = { id: this.records.newId(), createdAt: Math.floor(Date.now() / 1000), model: call.modelId, request };
    const answer = await this.run(call, responseAsChatRequest(request), signal);
    if (!(Symbol.asyncIterator in answer)) {
      const response = chatAnswerAsResponse(answer, origin);
      await this.records.save(call.caller.tenantId, { ...response, id: origin.id });
      return response;
    }
    const rewrite = new ChatStreamAsResponseEvents(origin);
    let saved = false;
    return this.rewritten(
      answer,
      (text) => rewrite.push(text),
      async () => {
        if (!rewrite.final || saved) return;
        saved = true;
        await this.records.save(call.caller.tenantId, { ...rewrite.final, id: origin.id });
      },
    );
  }

  private run(call: PreparedCall, body: ChatCompletionRequest, signal: AbortSignal): Promise<ChatAnswer> {
    return this.chat.execute(oaicChatCall({ ...call, body }), signal);
  }

  /** The chat stream's frames rewritten; `beforeYield` runs before each write (to store a response ahead of its last event). */
  private async *rewritten(chat: AsyncGenerator<Uint8Array>, rewrite: (text: string) => string, beforeYield?: () => Promise<void>): AsyncGenerator<Uint8Array> {
    const decoder = new TextDecoder();
    for await (const bytes of chat) {
      const out = rewrite(decoder.decode(bytes, { stream: true }));
      await beforeYield?.();
      if (out !== '') yield encoder.encode(out);
    }
  }
}
