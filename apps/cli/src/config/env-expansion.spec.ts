import { EnvExpansionError, expandEnvDeep, expandEnvString } from './env-expansion';

describe('expandEnvString', () => {
  const env = { HOST: 'example.test', EMPTY: '' };

  it('replaces a set variable', () => {
    expect(expandEnvString('https://${HOST}/v1', env)).toBe('https://example.test/v1');
  });

  it('uses the default when the variable is unset or empty', () => {
    expect(expandEnvString('${PORT:-8090}', env)).toBe('8090');
    expect(expandEnvString('${EMPTY:-fallback}', env)).toBe('fallback');
    expect(expandEnvString('${HOST:-other}', env)).toBe('example.test');
  });

  it('allows an empty default and keeps $${ literal', () => {
    expect(expandEnvString('a${NOPE:-}b', env)).toBe('ab');
    expect(expandEnvString('cost $${HOST}', env)).toBe('cost ${HOST}');
  });

  it('fails on an unset variable without default, naming it', () => {
    expect(() => expandEnvString('${MISSING_KEY}', env)).toThrow(/\$\{MISSING_KEY\} is not set/);
  });
});

describe('expandEnvDeep', () => {
  it('expands strings at any depth and leaves other values alone', () => {
    const doc = { providers: [{ baseUrl: '${U:-http://x}', n: 3, on: true }], nothing: null };
    expect(expandEnvDeep(doc, { U: 'http://y' })).toEqual({ providers: [{ baseUrl: 'http://y', n: 3, on: true }], nothing: null });
  });

  it('names the path of the value that cannot expand', () => {
    const doc = { providers: [{ id: 'a' }, { apiKey: '${SECRET}' }] };
    expect(() => expandEnvDeep(doc, {})).toThrow(EnvExpansionError);
    expect(() => expandEnvDeep(doc, {})).toThrow(/^providers\[1\]\.apiKey: \$\{SECRET\} is not set/);
  });
});
