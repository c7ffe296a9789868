// Pure builders for Anthropic Messages: a deterministic plan from the request (a tool_use when tools are
// offered, an answer quoting a tool_result, or an echo of the last user text), rendered as one message
// body or as the exact event sequence of a stream (message_start, content_block_start, ping, deltas,
// content_block_stop, message_delta, message_stop).
import { GatewayError, type CountTokensRequest, type MessagesRequest, type MsgcContentBlock, type MsgcMessage } from '@gateway/contracts';
import { usePromptCache } from '../../core/prompt-cache';
import { isSignedThought, thinkAbout, type Thought } from '../../core/reasoning';
import { structuredAnswer, toolArgumentsFor } from '../../core/structured-answer';
import { countTokens, hash32, truncateTokens } from '../../core/tokenizer';
import { splitInto } from '../openai/chat.builder';

const IMAGE_TOKENS = 85;

/** Cache counts appear when the request marks a breakpoint with cache_control; `input_tokens` is then what was neither read nor written. */
export interface MessageUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export type MessagePlan = (
  | { kind: 'text'; pieces: string[]; text: string; stopReason: 'end_turn' | 'max_tokens' | 'stop_sequence'; stopSequence: string | null; usage: MessageUsage }
  | { kind: 'tool'; call: { id: string; name: string; input: Record<string, unknown> }; argumentPieces: string[]; usage: MessageUsage }
) & { thought: Thought | null };

export interface MessageMeta {
  id: string;
  model: string;
}

function blocks(message: MsgcMessage): MsgcContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

function blockText(block: MsgcContentBlock): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'tool_use') return `${block.name} ${JSON.stringify(block.input)}`;
  if (block.type === 'tool_result')
    return typeof block.content === 'string' ? block.content : (block.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
  return '';
}

/** Input tokens as the gateway's local estimator counts them: text, tool calls and results, tools, 85 per image. */
export function inputTokensOf(request: CountTokensRequest): number {
  let total = 0;
  if (typeof request.system === 'string') total += countTokens(request.system);
  else for (const block of request.system ?? []) total += countTokens(block.text);
  for (const message of request.messages) {
    for (const block of blocks(message)) total += block.type === 'image' ? IMAGE_TOKENS : countTokens(blockText(block));
  }
  for (const tool of request.tools ?? [])
    total += countTokens(tool.name) + countTokens(tool.description ?? '') + countTokens(JSON.stringify(tool.input_schema));
  return total;
}

function userText(message: MsgcMessage | undefined): string {
  if (!message) return '';
  return blocks(message)
    .filter((block) => block.type === 'text')
    .map(blockText)
    .join(' ');
}

function cutAtStop(text: string, stops: readonly string[]): { text: string; stop: string | null } {
  let cut = -1;
  let found: string | null = null;
  for (const stop of stops) {
    const at = stop ? text.indexOf(stop) : -1;
    if (at >= 0 && (cut < 0 || at < cut)) [cut, found] = [at, stop];
  }
  return found === null ? { text, stop: null } : { text: text.slice(0, cut), stop: found };
}

/** As Anthropic does: thinking sent back must carry the signature it was given with, unaltered. */
function checkThinkingSignatures(request: MessagesRequest): void {
  request.messages.forEach((message, i) => {
    if (typeof message.content === 'string') return;
    message.content.forEach((block, j) => {
      if (block.type === 'thinking' && !isSignedThought(block.thinking, block.signature))
        throw GatewayError.invalid('Invalid `signature` in `thinking` block', `messages.${i}.content.${j}.signature`);
    });
  });
}

/** Tokens of the prompt up to its last cache_control breakpoint (tools, then system, then messages), and that prefix's identity. */
function cachedPrefix(request: MessagesRequest): { key: string; tokens: number } | null {
  const parts: { text: string; marked: boolean }[] = [];
  const marked = (block: unknown) => typeof block === 'object' && block !== null && 'cache_control' in block && Boolean(block.cache_control);
  for (const tool of request.tools ?? [])
    parts.push({ text: `${tool.name} ${tool.description ?? ''} ${JSON.stringify(tool.input_schema)}`, marked: marked(tool) });
  if (typeof request.system === 'string') parts.push({ text: request.system, marked: false });
  else for (const block of request.system ?? []) parts.push({ text: block.text, marked: marked(block) });
  for (const message of request.messages) for (const block of blocks(message)) parts.push({ text: blockText(block), marked: marked(block) });
  let end = -1;
  parts.forEach((part, i) => (end = part.marked ? i : end));
  if (end < 0) return null;
  const prefix = parts.slice(0, end + 1).map((part) => part.text);
  return { key: `anthropic:${request.model}:${prefix.join('\u0000')}`, tokens: countTokens(prefix.join(' ')) };
}

function usageFor(request: MessagesRequest, output: number, thought: Thought | null): MessageUsage {
  const inputTokens = inputTokensOf(request);
  const usage: MessageUsage = { input_tokens: inputTokens, output_tokens: output + (thought?.tokens ?? 0) };
  const prefix = cachedPrefix(request);
  if (!prefix) return usage;
  const cache = usePromptCache(prefix.key, Math.min(prefix.tokens, inputTokens));
  return { ...usage, input_tokens: inputTokens - cache.read - cache.write, cache_creation_input_tokens: cache.write, cache_read_input_tokens: cache.read };
}

export function planMessage(request: MessagesRequest): MessagePlan {
  checkThinkingSignatures(request);
  const messages = request.messages;
  const last = messages[messages.length - 1]!;
  const lastUser = [...messages].reverse().find((message) => message.role === 'user' && userText(message) !== '');
  const said = userText(lastUser);
  const result = blocks(last).find((block) => block.type === 'tool_result');
  const thought = request.thinking?.type === 'enabled' ? thinkAbout(said, request.thinking.budget_tokens) : null;
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (!result && tools.length > 0 && choice?.type !== 'none') {
    const tool = (choice?.type === 'tool' ? tools.find((t) => t.name === choice.name) : undefined) ?? tools[0]!;
    const input = toolArgumentsFor(tool.input_schema, said);
    const json = JSON.stringify(input);
    const call = { id: `toolu_${hash32(`${tool.name}:${json}`).toString(36)}`, name: tool.name, input };
    return { kind: 'tool', call, argumentPieces: splitInto(json, 3), usage: usageFor(request, countTokens(`${tool.name} ${json}`), thought), thought };
  }
  let full = `You said: ${said}`;
  if (result && result.type === 'tool_result') {
    const use = messages.flatMap(blocks).find((block) => block.type === 'tool_use' && block.id === result.tool_use_id);
    full = `The ${use && use.type === 'tool_use' ? use.name : 'tool'} tool returned: ${blockText(result)}`;
  }
  const format = request.output_config?.format ?? request.output_format;
  if (format) full = structuredAnswer({ kind: 'json_schema', schema: format.schema }, result ? full : said);
  const stopped = format ? { text: full, stop: null } : cutAtStop(full, request.stop_sequences ?? []);
  const { text, tokens, truncated } = truncateTokens(stopped.text, request.max_tokens);
  const stopReason = truncated ? 'max_tokens' : stopped.stop !== null ? 'stop_sequence' : 'end_turn';
  return {
    kind: 'text',
    pieces: tokens,
    text,
    stopReason,
    stopSequence: truncated ? null : stopped.stop,
    usage: usageFor(request, tokens.length, thought),
    thought,
  };
}

export function messageBody(plan: MessagePlan, meta: MessageMeta): Record<string, unknown> {
  const answer =
    plan.kind === 'text' ? [{ type: 'text', text: plan.text }] : [{ type: 'tool_use', id: plan.call.id, name: plan.call.name, input: plan.call.input }];
  const content = plan.thought ? [{ type: 'thinking', thinking: plan.thought.text, signature: plan.thought.signature }, ...answer] : answer;
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content,
    stop_reason: plan.kind === 'text' ? plan.stopReason : 'tool_use',
    stop_sequence: plan.kind === 'text' ? plan.stopSequence : null,
    usage: plan.usage,
  };
}

export interface NamedEvent {
  event: string;
  data: Record<string, unknown>;
}

export function messageEvents(plan: MessagePlan, meta: MessageMeta): NamedEvent[] {
  const ev = (data: Record<string, unknown>): NamedEvent => ({ event: data.type as string, data });
  const start = {
    ...messageBody(plan, meta),
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...plan.usage, output_tokens: 1 },
  };
  const events: NamedEvent[] = [ev({ type: 'message_start', message: start })];
  let index = 0;
  if (plan.thought) {
    events.push(
      ev({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      ev({ type: 'ping' }),
      ev({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: plan.thought.text } }),
      ev({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: plan.thought.signature } }),
      ev({ type: 'content_block_stop', index }),
    );
    index += 1;
  }
  if (plan.kind === 'text') {
    events.push(ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
    if (index === 0) events.push(ev({ type: 'ping' }));
    for (const piece of plan.pieces) events.push(ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
  } else {
    events.push(ev({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: plan.call.id, name: plan.call.name, input: {} } }));
    if (index === 0) events.push(ev({ type: 'ping' }));
    for (const piece of plan.argumentPieces) events.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
  }
  events.push(
    ev({ type: 'content_block_stop', index }),
    ev({
      type: 'message_delta',
      delta: { stop_reason: plan.kind === 'text' ? plan.stopReason : 'tool_use', stop_sequence: plan.kind === 'text' ? plan.stopSequence : null },
      usage: { output_tokens: plan.usage.output_tokens },
    }),
    ev({ type: 'message_stop' }),
  );
  return events;
}
