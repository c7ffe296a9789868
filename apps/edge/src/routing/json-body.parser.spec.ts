import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonBody } from './json-body.parser';

describe('nestsDeeperThan', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it('counts objects and arrays alike, up to the limit inclusive', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":{"c":[1]}}}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":{"c":1}}}', 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ text: '[[[[[[{{{{{{' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ text: 'say \\"[[[[" and "{{{{' }), 1)).toBe(false);
  });

  it('depth falls as brackets close: siblings do not add up', () => {
    expect(nestsDeeperThan('[' + '[],'.repeat(1000) + '[]]', 2)).toBe(false);
  });
});

describe('parseJsonBody', () => {
  const messageOf = (text: string) => {
    try {
      parseJsonBody(text);
    } catch (error) {
      return (error as Error).message;
    }
    return null;
  };

  it('parses ordinary bodies, poisoning-looking text inside strings included', () => {
    expect(parseJsonBody('{"model":"m","text":"__proto__ and constructor"}')).toEqual({ model: 'm', text: '__proto__ and constructor' });
    expect(parseJsonBody('{"constructor":{"name":"x"}}')).toEqual({ constructor: { name: 'x' } });
  });

  it('names a forbidden key, however it is spelled or nested', () => {
    expect(messageOf('{"__proto__":{"x":1}}')).toBe('The request body contains a forbidden key __proto__.');
    expect(messageOf('{"a":[{"\\u005f_proto__":1}]}')).toBe('The request body contains a forbidden key __proto__.');
    expect(messageOf('{"constructor":{"prototype":{"x":1}}}')).toBe('The request body contains a forbidden key constructor.prototype.');
  });

  it('says what is wrong with empty, malformed and too deep bodies', () => {
    expect(messageOf('')).toMatch(/empty/);
    expect(messageOf('{"model":')).toMatch(/^The request body is not valid JSON/);
    expect(messageOf('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))).toMatch(/deeper than 64 levels/);
  });
});
