import { GatewayError } from '@gateway/contracts';
import { parseOperation, type JsonOperation } from './oaic-codec';

const bodies: Record<JsonOperation, Record<string, unknown>> = {
  chat: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
  completions: { model: 'm', prompt: 'hi' },
  responses: { model: 'm', input: 'hi', previous_response_id: 'resp_1' },
  embeddings: { model: 'm', input: ['a', 'b'] },
  moderations: { input: 'hi' },
  images: { model: 'm', prompt: 'a cat' },
  speech: { model: 'm', input: 'hello', voice: 'alloy' },
};

function refusal(op: JsonOperation, body: unknown): GatewayError {
  try {
    parseOperation(op, body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`${op} accepted ${JSON.stringify(body)}`);
}

describe('parseOperation', () => {
  it.each(Object.keys(bodies) as JsonOperation[])('parses a %s body under its own operation', (op) => {
    const request = parseOperation(op, bodies[op]);
    expect(request.op).toBe(op);
    expect(request.body).toEqual(bodies[op]);
  });

  it('gives each operation its own typed fields', () => {
    const request = parseOperation('responses', bodies.responses);
    // Typed access, no casts: these lines only compile because `op` narrows `body`.
    const previous: string | null | undefined = request.op === 'responses' ? request.body.previous_response_id : undefined;
    expect(previous).toBe('resp_1');
    const images = parseOperation('images', bodies.images);
    const prompt: string = images.op === 'images' ? images.body.prompt : '';
    expect(prompt).toBe('a cat');
  });

  it('refuses a previous_response_id that is not a string, naming it', () => {
    const error = refusal('responses', { ...bodies.responses, previous_response_id: 42 });
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe('previous_response_id');
  });

  it.each([
    ['chat', { model: 'm' }, 'messages'],
    ['completions', { model: 'm' }, 'prompt'],
    ['images', { model: 'm', prompt: 7 }, 'prompt'],
    ['speech', { model: 'm', voice: 'alloy' }, 'input'],
  ] as const)('refuses a %s body %j by its own schema, naming the field', (op, body, field) => {
    expect(refusal(op, body).param).toBe(field);
  });
});
