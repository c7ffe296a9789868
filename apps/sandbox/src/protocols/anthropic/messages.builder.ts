// Pure builders for Anthropic Messages: a deterministic plan from the request (a tool_use when tools are
// offered, an answer quoting a tool_result, or an echo of the last user text), rendered as one message
// body or as the exact event sequence of a stream (message_start, content_block_start, ping, deltas,
// content_block_stop, message_delta, message_stop).
import type { CountTokensRequest, MessagesRequest, MsgcContentBlock, MsgcMessage } from '@gateway/contracts';
import { countTokens, hash32, truncateTokens } from '../../core/tokenizer';
import { splitInto } from '../openai/chat.builder';

const IMAGE_TOKENS = 85;

export interface MessageUsage {
  input_tokens: number;
  output_tokens: number;
}

export type MessagePlan =
  | { kind: 'text'; pieces: string[]; text: string; stopReason: 'end_turn' | 'max_tokens' | 'stop_sequence'; stopSequence: string | null; usage: MessageUsage }
  | { kind: 'tool'; call: { id: string; name: string; input: Record<string, unknown> }; argumentPieces: string[]; usage: MessageUsage };

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

export function planMessage(request: MessagesRequest): MessagePlan {
  const messages = request.messages;
  const last = messages[messages.length - 1]!;
  const lastUser = [...messages].reverse().find((message) => message.role === 'user' && userText(message) !== '');
  const said = userText(lastUser);
  const inputTokens = inputTokensOf(request);
  const result = blocks(last).find((block) => block.type === 'tool_result');
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (!result && tools.length > 0 && choice?.type !== 'none') {
    const tool = (choice?.type === 'tool' ? tools.find((t) => t.name === choice.name) : undefined) ?? tools[0]!;
    const properties = tool.input_schema.properties;
    const first = properties && typeof properties === 'object' ? Object.keys(properties)[0] : undefined;
    const input = { [first ?? 'input']: said };
    const json = JSON.stringify(input);
    const call = { id: `toolu_${hash32(`${tool.name}:${json}`).toString(36)}`, name: tool.name, input };
    return { kind: 'tool', call, argumentPieces: splitInto(json, 3), usage: { input_tokens: inputTokens, output_tokens: countTokens(`${tool.name} ${json}`) } };
  }
  let full = `You said: ${said}`;
  if (result && result.type === 'tool_result') {
    const use = messages.flatMap(blocks).find((block) => block.type === 'tool_use' && block.id === result.tool_use_id);
    full = `The ${use && use.type === 'tool_use' ? use.name : 'tool'} tool returned: ${blockText(result)}`;
  }
  const stopped = cutAtStop(full, request.stop_sequences ?? []);
  const { text, tokens, truncated } = truncateTokens(stopped.text, request.max_tokens);
  const stopReason = truncated ? 'max_tokens' : stopped.stop !== null ? 'stop_sequence' : 'end_turn';
  return {
    kind: 'text',
    pieces: tokens,
    text,
    stopReason,
    stopSequence: truncated ? null : stopped.stop,
    usage: { input_tokens: inputTokens, output_tokens: tokens.length },
  };
}

export function messageBody(plan: MessagePlan, meta: MessageMeta): Record<string, unknown> {
  const content =
    plan.kind === 'text' ? [{ type: 'text', text: plan.text }] : [{ type: 'tool_use', id: plan.call.id, name: plan.call.name, input: plan.call.input }];
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
    usage: { input_tokens: plan.usage.input_tokens, output_tokens: 1 },
  };
  const events: NamedEvent[] = [ev({ type: 'message_start', message: start })];
  if (plan.kind === 'text') {
    events.push(ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }), ev({ type: 'ping' }));
    for (const piece of plan.pieces) events.push(ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }));
  } else {
    events.push(
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: plan.call.id, name: plan.call.name, input: {} } }),
      ev({ type: 'ping' }),
    );
    for (const piece of plan.argumentPieces)
      events.push(ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: piece } }));
  }
  events.push(
    ev({ type: 'content_block_stop', index: 0 }),
    ev({
      type: 'message_delta',
      delta: { stop_reason: plan.kind === 'text' ? plan.stopReason : 'tool_use', stop_sequence: plan.kind === 'text' ? plan.stopSequence : null },
      usage: { output_tokens: plan.usage.output_tokens },
    }),
    ev({ type: 'message_stop' }),
  );
  return events;
}
