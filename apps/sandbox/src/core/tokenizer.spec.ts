import { countTokens, hash32, seededRandom, tokenize, truncateTokens } from './tokenizer';

describe('tokenizer', () => {
  it('splits words and punctuation, keeping the leading whitespace', () => {
    expect(tokenize('Hello, world!')).toEqual(['Hello', ',', ' world', '!']);
    expect(tokenize('  a  b')).toEqual(['  a', '  b']);
    expect(countTokens('')).toBe(0);
  });

  it('joins back to the trimmed text', () => {
    const text = 'You said: the weather in Paris, today?';
    expect(tokenize(text).join('')).toBe(text);
  });

  it('truncates to a token limit and says so', () => {
    expect(truncateTokens('one two three', 2)).toEqual({ text: 'one two', tokens: ['one', ' two'], truncated: true });
    expect(truncateTokens('one two', 5).truncated).toBe(false);
    expect(truncateTokens('one two', undefined).text).toBe('one two');
  });

  it('derives stable numbers from text', () => {
    expect(hash32('abc')).toBe(hash32('abc'));
    expect(hash32('abc')).not.toBe(hash32('abd'));
    const a = seededRandom(7);
    const b = seededRandom(7);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
