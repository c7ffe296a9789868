// Reading an OpenAI-protocol SSE body: parsed chat chunks, and an accumulator that rebuilds the full
// message (content, tool calls, finish reason, usage) from the deltas.
import type { Readable } from 'node:stream';
import { GatewayError } from '@gateway/contracts';
import { parseSse } from '../../http/sse-stream.parser';
import { extractUsage, type TokenUsage } from './openai.adapter';
import { type ChatCompletionChunk, ChatCompletionChunk as ChunkSchema } from './openai-response.schema';

export function parseChatChunk(data: string): ChatCompletionChunk {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new GatewayError('upstream_error', 'The upstream stream sent an event that is not JSON.');
  }
  const parsed = ChunkSchema.safeParse(json);
  if (!parsed.success) throw new GatewayError('upstream_error', `The upstream stream sent an unexpected chunk (${parsed.error.issues[0]!.message}).`);
  return parsed.data;
}

/** The chat.completion.chunk objects of an upstream stream, parsed. An `error` event becomes a GatewayError. */
export async function* parseChatStream(body: Readable | AsyncIterable<Uint8Array | string>): AsyncGenerator<ChatCompletionChunk> {
  for await (const event of parseSse(body)) {
    if (event.event === 'error' || event.data.startsWith('{"error"')) {
      const message = (() => {
        try {
          const value = JSON.parse(event.data) as { error?: { message?: string } | string; message?: string };
          return typeof value.error === 'string' ? value.error : (value.error?.message ?? value.message);
        } catch {
          return undefined;
        }
      })();
      throw new GatewayError('upstream_error', message ?? 'The upstream stream reported an error.');
    }
    yield parseChatChunk(event.data);
  }
}

/** A chunk as the client should see it: the public model id instead of the upstream's. */
export function toPublicChunk<T extends { model?: string }>(chunk: T, publicModelId: string): T {
  return { ...chunk, model: publicModelId };
}

export interface AssembledToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface AssembledChat {
  content: string;
  toolCalls: AssembledToolCall[];
  finishReason: string | null;
  usage: TokenUsage | null;
  /** Chunks seen, including the usage-only one. */
  chunks: number;
}

/** Rebuilds the answer of choice 0 from stream chunks, as they arrive. */
export class ChatStreamAccumulator {
  private content = '';
  private readonly calls = new Map<number, AssembledToolCall>();
  private finishReason: string | null = null;
  private usage: TokenUsage | null = null;
  private chunks = 0;

  push(chunk: ChatCompletionChunk): void {
    this.chunks += 1;
    this.usage = extractUsage(chunk) ?? this.usage;
    const choice = chunk.choices.find((candidate) => candidate.index === 0);
    if (!choice) return;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    if (choice.delta?.content) this.content += choice.delta.content;
    for (const delta of choice.delta?.tool_calls ?? []) {
      const index = delta.index ?? 0;
      const call = this.calls.get(index) ?? { id: '', type: 'function' as const, function: { name: '', arguments: '' } };
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.function.name += delta.function.name;
      if (delta.function?.arguments) call.function.arguments += delta.function.arguments;
      this.calls.set(index, call);
    }
  }

  result(): AssembledChat {
    const toolCalls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    return { content: this.content, toolCalls, finishReason: this.finishReason, usage: this.usage, chunks: this.chunks };
  }
}
