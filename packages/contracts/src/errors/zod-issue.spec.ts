import { z } from 'zod';
import { GatewayError } from './gateway-error';
import { issuePath, parseOrThrow } from './zod-issue';

const Body = z.object({
  model: z.string(),
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })),
});

function failure(input: unknown): GatewayError {
  try {
    parseOrThrow(Body, input);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected a failure');
}

describe('parseOrThrow', () => {
  it('returns the parsed value', () => {
    expect(parseOrThrow(Body, { model: 'm', messages: [] })).toEqual({ model: 'm', messages: [] });
  });

  it('names a missing field', () => {
    const error = failure({ messages: [] });
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe('model');
    expect(error.message).toBe("Missing required parameter: 'model'.");
  });

  it('names a nested field with indexes', () => {
    const error = failure({ model: 'm', messages: [{ role: 'user', content: 1 }] });
    expect(error.param).toBe('messages[0].content');
    expect(error.message).toContain('expected string');
  });

  it('prefixes the path when asked', () => {
    try {
      parseOrThrow(z.object({ limit: z.number() }), { limit: 'x' }, 'query');
    } catch (error) {
      expect((error as GatewayError).param).toBe('query.limit');
      return;
    }
    throw new Error('expected a failure');
  });

  it('formats paths', () => {
    expect(issuePath(['a', 0, 'b', 12])).toBe('a[0].b[12]');
    expect(issuePath([])).toBe('');
  });
});
