import { FAMILY_CHAT, parseSse, UPSTREAM_CHAT, type ChatIrResponse, type IrFamily, type IrStreamEvent } from '@gateway/providers';
import { Readable } from 'node:stream';
import { answerOf, eventsOf, replayStream } from './cache-replay';

const ANSWER: ChatIrResponse = {
  id: 'answer-1',
  model: 'public-model',
  parts: [
    { type: 'text', text: 'Hello there.' },
    { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
  ],
  stopReason: 'tool_use',
  stopSequence: null,
  usage: { inputTokens: 11, outputTokens: 7 },
};

const PROTOCOL = { oaic: 'openai', msgc: 'anthropic', genc: 'gemini' } as const;

describe('a cached answer replayed as a stream', () => {
  it('gives the events of a live stream: start, each part whole, the finish with usage', () => {
    expect(eventsOf(ANSWER).map((e) => e.type)).toEqual(['start', 'text_delta', 'block_stop', 'tool_call_start', 'tool_call_delta', 'block_stop', 'finish']);
  });

  it("spells the whole answer back from a stream's events, and nothing from a stream that never finished", () => {
    const reasoning: ChatIrResponse = { ...ANSWER, parts: [{ type: 'reasoning', text: 'Hmm.', signature: 'sig_1', redacted: null }, ...ANSWER.parts] };
    expect(answerOf(eventsOf(reasoning))).toEqual(reasoning);
    expect(answerOf(eventsOf(ANSWER).slice(0, -1))).toBeNull();
  });

  it.each(['oaic', 'msgc', 'genc'] as IrFamily[])('in %s: decodes back to the stored answer, usage and end markers included', async (family) => {
    const stored = FAMILY_CHAT[family].toResponse(ANSWER) as Record<string, unknown>;
    const text = replayStream(family, stored, 'public-model');
    const decoder = UPSTREAM_CHAT[PROTOCOL[family]].streamDecoder({ model: 'public-model', fallbackId: 'x', estimatedInputTokens: 0 });
    const events: IrStreamEvent[] = [];
    for await (const message of parseSse(Readable.from([text]))) events.push(...decoder.push(message));
    events.push(...decoder.end());
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('Hello there.');
    expect(events.find((e) => e.type === 'tool_call_start')).toMatchObject({ name: 'get_weather' });
    expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 11, outputTokens: 7 } });
    if (family === 'oaic') expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    if (family === 'msgc') expect(text).toMatch(/event: message_stop\ndata: .*\n\n$/);
    if (family === 'genc') expect(JSON.parse(text.trim().split('\n').at(-1)!.slice('data: '.length))).toHaveProperty('usageMetadata');
  });
});
