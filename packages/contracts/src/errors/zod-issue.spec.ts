import { z } from 'zod';
import { GatewayError } from './gateway-error';
import { InputTime, printableText } from '../inputs/input-text.schema';
import { issuePath, parseInput, parseOrThrow } from './zod-issue';

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

describe('parseInput', () => {
  const Query = z.object({ since: InputTime.optional(), model: printableText(128).optional() }).strict();
  const refusal = (input: unknown, where: 'query' | 'path' | 'body') => {
    try {
      parseInput(Query, input, where);
    } catch (error) {
      return error as GatewayError;
    }
    throw new Error('expected a refusal');
  };

  it('names an unknown parameter and where it was, not the body', () => {
    const error = refusal({ nope: '1' }, 'query');
    expect(error.message).toBe("Unrecognized query parameter(s): 'nope'.");
    expect(error.param).toBe('nope');
  });

  it('refuses a time outside 2000..2100 and control characters, naming the parameter and its place', () => {
    expect(refusal({ since: '0000-01-01T00:00:00Z' }, 'query').message).toMatch(
      /^Invalid value for query parameter 'since': expected a time between the years 2000 and 2100/,
    );
    const error = refusal({ model: 'a\u0000b' }, 'path');
    expect(error.param).toBe('model');
    expect(error.message).toBe("Invalid value for path parameter 'model': control characters are not allowed");
  });

  it('returns what parses', () => {
    expect(parseInput(Query, { since: '2026-01-01T00:00:00Z' }, 'query')).toEqual({ since: '2026-01-01T00:00:00Z' });
  });
});
