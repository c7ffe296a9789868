import { Readable } from 'node:stream';
import {
  FAMILY_CHAT,
  parseSse,
  UPSTREAM_CHAT,
  type ChatIrResponse,
  type ChatUpstream,
  type IrFamily,
  type IrOutputPart,
  type IrReasoningPart,
  type IrTextPart,
  type IrStreamEvent,
} from '@gateway/providers';

/** The protocol whose answers are each family's own shape: a stored family answer decodes through it. */
const OWN_PROTOCOL: Record<IrFamily, ChatUpstream> = { oaic: 'openai', msgc: 'anthropic', genc: 'gemini' };

/** A whole answer as the events a live stream of it gives, in order, ending with its finish and usage. */
export function eventsOf(answer: ChatIrResponse): IrStreamEvent[] {
  const events: IrStreamEvent[] = [{ type: 'start', id: answer.id, model: answer.model, inputTokens: answer.usage.inputTokens }];
  let tools = 0;
  for (const part of answer.parts) {
    switch (part.type) {
      case 'text':
        events.push({ type: 'text_delta', text: part.text }, { type: 'block_stop' });
        break;
      case 'reasoning':
        if (part.redacted !== null) events.push({ type: 'reasoning_redacted', data: part.redacted });
        else events.push({ type: 'reasoning_delta', text: part.text });
        if (part.signature !== null) events.push({ type: 'reasoning_signature', signature: part.signature });
        events.push({ type: 'block_stop' });
        break;
      case 'tool_call': {
        const index = tools++;
        events.push(
          { type: 'tool_call_start', index, id: part.id, name: part.name },
          { type: 'tool_call_delta', index, arguments: part.arguments },
          { type: 'block_stop' },
        );
        break;
      }
      case 'image':
        events.push({ type: 'image', mediaType: part.mediaType, data: part.data });
        break;
    }
  }
  events.push({ type: 'finish', stopReason: answer.stopReason, stopSequence: answer.stopSequence, usage: answer.usage });
  return events;
}

/**
 * A stored chat answer of `family` (its whole-answer shape, with the public model) replayed as the SSE
 * text a live stream in that family gives, end markers and usage included: decoded by the family's own
 * protocol codec, then written by the family's stream encoder.
 */
export function replayStream(family: IrFamily, answer: Record<string, unknown>, model: string): string {
  const ir = UPSTREAM_CHAT[OWN_PROTOCOL[family]].fromResponse(answer, { model, fallbackId: '', estimatedInputTokens: 0 });
  const encoder = FAMILY_CHAT[family].streamEncoder(ir.id, model);
  let out = '';
  for (const event of eventsOf(ir)) out += encoder.push(event);
  return out + encoder.end();
}

/** The whole answer a stream's events spell, parts in order; null when the stream never said it finished. */
export function answerOf(events: readonly IrStreamEvent[]): ChatIrResponse | null {
  let head: { id: string; model: string } | null = null;
  const parts: IrOutputPart[] = [];
  const tools = new Map<number, Extract<IrOutputPart, { type: 'tool_call' }>>();
  // The block deltas go to until a block_stop (or another kind of part) closes it.
  let open: IrOutputPart | null = null;
  const part = <T extends IrOutputPart>(type: T['type'], make: () => T): T => {
    if (open?.type !== type) parts.push((open = make()));
    return open as T;
  };
  const reasoning = () => part<IrReasoningPart>('reasoning', () => ({ type: 'reasoning', text: '', signature: null, redacted: null }));
  for (const event of events) {
    switch (event.type) {
      case 'start':
        head = { id: event.id, model: event.model };
        break;
      case 'text_delta':
        part<IrTextPart>('text', () => ({ type: 'text', text: '' })).text += event.text;
        break;
      case 'reasoning_delta':
        reasoning().text += event.text;
        break;
      case 'reasoning_signature':
        reasoning().signature = event.signature;
        break;
      case 'reasoning_redacted':
        reasoning().redacted = event.data;
        break;
      case 'tool_call_start': {
        const call = { type: 'tool_call' as const, id: event.id, name: event.name, arguments: '' };
        tools.set(event.index, call);
        parts.push((open = call));
        break;
      }
      case 'tool_call_delta': {
        const call = tools.get(event.index);
        if (call) call.arguments += event.arguments;
        break;
      }
      case 'image':
        parts.push({ type: 'image', mediaType: event.mediaType, data: event.data });
        open = null;
        break;
      case 'block_stop':
        open = null;
        break;
      case 'finish':
        if (!head) return null;
        return { ...head, parts, stopReason: event.stopReason, stopSequence: event.stopSequence, usage: event.usage };
    }
  }
  return null;
}

/**
 * A stream a client of `family` received, as the whole answer of that family (what a non-streamed request
 * gets): read back by the family's own protocol codec, with the tokens it was metered at (a stream may
 * not tell its usage). Null when the stream did not say it finished.
 */
export async function wholeAnswerOf(
  family: IrFamily,
  sse: string,
  model: string,
  tokens: { prompt: number; completion: number },
): Promise<Record<string, unknown> | null> {
  const decoder = UPSTREAM_CHAT[OWN_PROTOCOL[family]].streamDecoder({ model, fallbackId: '', estimatedInputTokens: 0 });
  const events: IrStreamEvent[] = [];
  for await (const message of parseSse(Readable.from([sse]))) events.push(...decoder.push(message));
  const answer = answerOf(events);
  if (!answer) return null;
  const usage = { ...answer.usage, inputTokens: tokens.prompt, outputTokens: tokens.completion };
  return FAMILY_CHAT[family].toResponse({ ...answer, usage }) as Record<string, unknown>;
}
