/**
 * Answers larger than one NATS message (1 MB by default): the chat service parks the reply in Redis and
 * the edge takes it back, so the client gets the whole answer; a stream's single event over the limit
 * (a responses stream's `response.completed`, which carries the whole response) arrives whole too.
 */
import { baseUrl, bearer, createTenantWithKey, http, openaiClient, type TenantWithKey } from './support/gateway';

const MB = 1024 * 1024;

/** A text the sandbox echoes whole: 3,000 long words, under sandbox-gpt's 4,096-token output cap, about 1.2 MB. */
function longText(seed: string): string {
  return Array.from({ length: 3000 }, (_, i) => `${seed}${i.toString(36)}`.padEnd(400, 'y')).join(' ');
}

/** The sandbox's answer to `input`, compared without printing a megabyte on a mismatch. */
function expectEcho(text: string, input: string): void {
  const expected = `You said: ${input}`;
  expect({ length: text.length, whole: text === expected }).toEqual({ length: expected.length, whole: true });
}

describe('answers larger than one NATS message', () => {
  let tenant: TenantWithKey;

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'large' });
  });

  it('answers a responses request whose answer exceeds 1 MB with 200 and the whole body (openai SDK)', async () => {
    const input = longText('alpha');
    const response = await openaiClient(tenant.key).responses.create({ model: 'sandbox-gpt', input });
    expect(response.status).toBe('completed');
    expectEcho(response.output_text, input);
  }, 60_000);

  it('relays that answer over 1 MB as bytes on the wire, on both path prefixes', async () => {
    for (const prefix of ['/oaic/v1', '/v1']) {
      const input = longText(prefix.length.toString());
      const result = await http('POST', `${baseUrl()}${prefix}/responses`, { headers: bearer(tenant.key), json: { model: 'sandbox-gpt', input } });
      expect(result.status).toBe(200);
      expect(Buffer.byteLength(result.text)).toBeGreaterThan(MB);
      expectEcho((result.body as { output: Array<{ content: Array<{ text: string }> }> }).output[0]!.content[0]!.text, input);
    }
  }, 60_000);

  it('streams a response whose completed event alone exceeds 1 MB, whole (openai SDK)', async () => {
    const input = longText('bravo');
    const stream = await openaiClient(tenant.key).responses.create({ model: 'sandbox-gpt', input, stream: true });
    let deltas = '';
    let completed = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') deltas += event.delta;
      if (event.type === 'response.completed') completed = event.response.output_text;
    }
    expectEcho(deltas, input);
    expectEcho(completed, input);
  }, 60_000);
});
