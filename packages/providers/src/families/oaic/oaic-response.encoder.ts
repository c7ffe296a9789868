// IR answer → oaic chat.completion body. Generated images ride in `message.images` as data URLs.
import type { ChatCompletionMessage, ChatCompletionResponse, ChatCompletionUsage, ChatImageOut, ChatToolCallOut } from '@gateway/contracts';
import type { ChatIrResponse } from '../../ir/chat-ir.schema';
import { toOaicFinishReason } from '../../ir/stop-reason.map';

export function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** The details appear when there is something to say: tokens read from the prompt cache, tokens spent reasoning. */
export function oaicUsage(usage: ChatIrResponse['usage']): ChatCompletionUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    ...(usage.cacheReadTokens ? { prompt_tokens_details: { cached_tokens: usage.cacheReadTokens } } : {}),
    ...(usage.reasoningTokens ? { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } } : {}),
  };
}

export function toOaicResponse(response: ChatIrResponse, created = Math.floor(Date.now() / 1000)): ChatCompletionResponse {
  let text: string | null = null;
  let reasoning: string | null = null;
  const toolCalls: ChatToolCallOut[] = [];
  const images: ChatImageOut[] = [];
  for (const part of response.parts) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'tool_call') toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
    else if (part.type === 'reasoning') reasoning = (reasoning ?? '') + part.text;
    else images.push({ type: 'image_url', image_url: { url: dataUrl(part.mediaType, part.data) } });
  }
  const message: ChatCompletionMessage = {
    role: 'assistant',
    content: text,
    refusal: null,
    // The reasoning text, where the model showed it, as OpenAI-compatible reasoning models return it.
    ...(reasoning !== null ? { reasoning_content: reasoning } : {}),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(images.length > 0 ? { images } : {}),
  };
  return {
    id: response.id,
    object: 'chat.completion',
    created,
    model: response.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: toOaicFinishReason(response.stopReason) }],
    usage: oaicUsage(response.usage),
  };
}
