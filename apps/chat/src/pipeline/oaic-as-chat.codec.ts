import { chatAnswerAsCompletion, chatAnswerAsResponse, ChatStreamAsCompletions, ChatStreamAsResponseEvents, type ResponseOrigin } from '@gateway/providers';
import type { ResponsesService } from '../responses/responses.service';
import type { ChatCall } from './chat-call';
import type { CodecOf, StreamFrames } from './chat-codec';

/** An oaic responses request answered as chat: the response it becomes is known before the upstream is asked. */
export type ResponseAsChatCall = ChatCall & { origin: ResponseOrigin };

/** A chat stream's frames rewritten for another oaic route; `settle` runs before each write, to store a response ahead of its last event. */
function rewrittenFrames(chat: StreamFrames, rewrite: (text: string) => string, settle?: () => Promise<void>): StreamFrames {
  const write = async (text: string | Promise<string>): Promise<string> => {
    const chatText = await text;
    if (chatText === '') return '';
    const out = rewrite(chatText);
    await settle?.();
    return out;
  };
  return { push: (event) => write(chat.push(event)), end: () => write(chat.end()) };
}

/** oaic completions for a model with a channel that has no such endpoint: sent as chat, answered as a completion. */
export function completionsAsChatCodec(chatCodec: CodecOf<ChatCall>): CodecOf<ChatCall> {
  return (call) => {
    const chat = chatCodec(call);
    return {
      request: chat.request,
      refusal: chat.refusal,
      answer: async (json, channel) => chatAnswerAsCompletion(await chat.answer(json, channel)),
      frames: (channel) => {
        const rewrite = new ChatStreamAsCompletions();
        return rewrittenFrames(chat.frames(channel), (text) => rewrite.push(text));
      },
    };
  };
}

/** oaic responses sent as chat: the answer is a response, stored for retrieval like any other (a stream's before its last event). */
export function responsesAsChatCodec(chatCodec: CodecOf<ChatCall>, responses: ResponsesService): CodecOf<ResponseAsChatCall> {
  return (call) => {
    const chat = chatCodec(call);
    const save = (response: Record<string, unknown>) => responses.save(call.caller.tenantId, { ...response, id: call.origin.id });
    return {
      request: chat.request,
      refusal: chat.refusal,
      answer: async (json, channel) => chatAnswerAsResponse(await chat.answer(json, channel), call.origin),
      settle: async (response) => {
        await save(response);
        return response;
      },
      frames: (channel) => {
        const rewrite = new ChatStreamAsResponseEvents(call.origin);
        let saved = false;
        const settle = async () => {
          if (!rewrite.final || saved) return;
          saved = true;
          await save(rewrite.final);
        };
        return rewrittenFrames(chat.frames(channel), (text) => rewrite.push(text), settle);
      },
    };
  };
}
