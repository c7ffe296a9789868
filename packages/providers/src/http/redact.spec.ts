import { clip, redactSecrets } from './redact';

describe('redactSecrets', () => {
  it('removes known secrets, bearer tokens, key-shaped strings and URL credentials', () => {
    expect(redactSecrets('key my-own-secret-value used', ['my-own-secret-value'])).toBe('key [redacted] used');
    expect(redactSecrets('Authorization: Bearer abc.def')).toBe('Authorization: Bearer [redacted]');
    expect(redactSecrets('Incorrect API key provided: sk-proj-abc123XYZ.')).toBe('Incorrect API key provided: [redacted].');
    expect(redactSecrets('at https://admin:hunter2@host/v1')).toBe('at https://[redacted]@host/v1');
    expect(redactSecrets('nothing secret here')).toBe('nothing secret here');
  });

  it('clips long text', () => {
    expect(clip('abcdef', 3)).toBe('abc…');
    expect(clip('abc', 3)).toBe('abc');
  });
});
