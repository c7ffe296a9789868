import type { ResponseCreateRequest } from '@gateway/contracts';
import { ChatStreamAsCompletions, ChatStreamAsResponseEvents } from '@gateway/providers';
import type { CachedOperation } from './cache-key';
import { replayStream } from './cache-replay';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A stored completion as the chat answer it reads as: one choice and no log probabilities, or none. */
export function completionAsChat(completion: Json): Json | null {
  const choices = completion.choices;
  if (!Array.isArray(choices) || choices.length !== 1 || !isRecord(choices[0])) return null;
  const choice = choices[0];
  if (typeof choice.text !== 'string' || (choice.logprobs !== null && choice.logprobs !== undefined)) return null;
  return {
    id: completion.id,
    object: 'chat.completion',
    created: completion.created,
    model: completion.model,
    choices: [{ index: 0, message: { role: 'assistant', content: choice.text }, finish_reason: choice.finish_reason ?? 'stop', logprobs: null }],
    usage: completion.usage,
  };
}

/** A stored response as the chat answer it reads as: text messages and function calls only, or none. */
export function responseAsChat(response: Json): Json | null {
  if (!Array.isArray(response.output) || !isRecord(response.usage)) return null;
  let text = '';
  const toolCalls: Json[] = [];
  for (const item of response.output as unknown[]) {
    if (!isRecord(item)) return null;
    if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
      continue;
    }
    if (item.type !== 'message' || !Array.isArray(item.content)) return null;
    for (const part of item.content as unknown[]) {
      if (!isRecord(part) || part.type !== 'output_text' || typeof part.text !== 'string') return null;
      text += part.text;
    }
  }
  const { input_tokens: prompt, output_tokens: completion } = response.usage;
  const finish = response.status === 'incomplete' ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const message = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
  return {
    id: response.id,
    object: 'chat.completion',
    created: response.created_at,
    model: response.model,
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: Number(prompt) + Number(completion) },
  };
}

/**
 * A stored answer as the SSE text a live stream of its operation gives: a chat answer in its family's
 * events, a completion as completion chunks, a response as its typed events under the same id. Null
 * when the entry has no such reading (the request then goes upstream, as a miss).
 */
export function replayOf(operation: CachedOperation, answer: Json, modelId: string, body: Readonly<Json>): string | null {
  switch (operation) {
    case 'oaic.chat':
      return replayStream('oaic', answer, modelId);
    case 'msgc.messages':
      return replayStream('msgc', answer, modelId);
    case 'genc.generate':
      return replayStream('genc', answer, modelId);
    case 'oaic.completions': {
      const chat = completionAsChat(answer);
      return chat && new ChatStreamAsCompletions().push(replayStream('oaic', chat, modelId));
    }
    case 'oaic.responses': {
      const chat = responseAsChat(answer);
      if (!chat || typeof answer.id !== 'string' || typeof answer.created_at !== 'number') return null;
      const origin = { id: answer.id, createdAt: answer.created_at, model: modelId, request: body as ResponseCreateRequest };
      return new ChatStreamAsResponseEvents(origin).push(replayStream('oaic', chat, modelId));
    }
  }
}
