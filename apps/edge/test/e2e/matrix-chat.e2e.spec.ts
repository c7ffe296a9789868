/**
 * Any chat model through any family: each public family (with its official SDK) against a model on each
 * upstream protocol (Azure OpenAI among them), unary and streamed: plain answers, structured output and a
 * tool-call round trip.
 */
import { getGlobalDispatcher } from 'undici';
import { ask, familyClients, MODEL_OF_PROTOCOL, STOP_WORDS, type ChatFamily, type FamilyClients, type UpstreamProtocol } from './support/chat-matrix';
import { createTenantWithKey } from './support/gateway';

const FAMILIES: ChatFamily[] = ['oaic', 'msgc', 'genc'];
const PROTOCOLS = Object.keys(MODEL_OF_PROTOCOL) as UpstreamProtocol[];
const CASES = FAMILIES.flatMap((family) => PROTOCOLS.map((protocol) => [family, protocol, MODEL_OF_PROTOCOL[protocol]] as const));

describe('chat matrix: family × upstream protocol', () => {
  let clients: FamilyClients;

  beforeAll(async () => {
    getGlobalDispatcher();
    clients = familyClients((await createTenantWithKey({ label: 'matrix' })).key);
  });

  describe.each(CASES)('%s → %s upstream (%s)', (family, _protocol, model) => {
    it('answers unary and streamed alike, with usage at the end of the stream', async () => {
      const user = `Hello from ${family} to ${model}, how are you?`;
      const whole = await ask(clients, family, model, { user, stream: false });
      expect(whole.text).toContain(user);
      expect(whole.stop).toBe(STOP_WORDS[family].end);
      expect(whole.model).toBe(model);
      expect(whole.usage!.input).toBeGreaterThan(0);
      expect(whole.usage!.output).toBeGreaterThan(0);

      const streamed = await ask(clients, family, model, { user, stream: true });
      expect(streamed.text).toBe(whole.text);
      expect(streamed.stop).toBe(STOP_WORDS[family].end);
      expect(streamed.model).toBe(model);
      expect(streamed.usage).toEqual(whole.usage);
      if (family === 'msgc') {
        expect(streamed.events[0]).toBe('message_start');
        expect(streamed.events.slice(-2)).toEqual(['message_delta', 'message_stop']);
      }
    });

    it.each([false, true])('answers with an instance of a JSON schema (stream: %s)', async (stream) => {
      const answer = await ask(clients, family, model, { user: 'Ada Lovelace', structured: true, stream });
      expect(JSON.parse(answer.text)).toEqual({ name: 'Ada Lovelace', age: 1 });
      expect(answer.stop).toBe(STOP_WORDS[family].end);
    });

    it.each([false, true])('round-trips a tool call (stream: %s), arguments whole', async (stream) => {
      const first = await ask(clients, family, model, { user: 'Paris', tools: true, stream });
      expect(first.call).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
      expect(first.stop).toBe(STOP_WORDS[family].tool);
      expect(first.usage).not.toBeNull();
      const second = await ask(clients, family, model, {
        user: 'Paris',
        tools: true,
        stream,
        toolResult: { call: first.call!, result: '21 degrees and sunny' },
      });
      expect(second.call).toBeNull();
      expect(second.text).toContain('21 degrees and sunny');
      expect(second.stop).toBe(STOP_WORDS[family].end);
    });
  });
});
