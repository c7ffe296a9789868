import { FAMILY_CHAT, UPSTREAM_CHAT, type ChatIrResponse, type ChatProtocol, type IrFamily, type IrStreamEvent } from '@gateway/providers';

/** The protocol whose answers are each family's own shape: a stored family answer decodes through it. */
const OWN_PROTOCOL: Record<IrFamily, ChatProtocol> = { oaic: 'openai', msgc: 'anthropic', genc: 'gemini' };

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
