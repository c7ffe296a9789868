import { CliError, EXIT } from '../cli-error';
import { parseConfigText } from './config-file';

const VALID = `
providers:
  - id: upstream
    protocol: openai
    baseUrl: \${UPSTREAM_URL:-http://127.0.0.1:8090}/openai/v1
    apiKeyEnv: UPSTREAM_KEY
models:
  - id: m-1
    displayName: Model one
    capability: chat
    provider: upstream
    prices: { inputPerMTok: "0.50" }
tenants:
  - slug: acme
    models: [m-1]
`;

function failure(text: string, env: NodeJS.ProcessEnv = {}): CliError {
  try {
    parseConfigText(text, 'test.yaml', env);
  } catch (error) {
    return error as CliError;
  }
  throw new Error('expected the config to be refused');
}

describe('parseConfigText', () => {
  it('returns the expanded input, untransformed, for the server to parse again', () => {
    const config = parseConfigText(VALID, 'test.yaml', { UPSTREAM_URL: 'http://sandbox:9000' });
    expect(config.providers?.[0]?.baseUrl).toBe('http://sandbox:9000/openai/v1');
    expect(config.models?.[0]).toMatchObject({ id: 'm-1', provider: 'upstream', prices: { inputPerMTok: '0.50' } });
    expect(config.models?.[0]).not.toHaveProperty('channels');
  });

  it('uses defaults when the variable is unset', () => {
    expect(parseConfigText(VALID, 'test.yaml', {}).providers?.[0]?.baseUrl).toBe('http://127.0.0.1:8090/openai/v1');
  });

  it('refuses invalid YAML with the file, line and column', () => {
    const error = failure('providers:\n  - id: a\n   protocol: openai\n');
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toMatch(/^test\.yaml: invalid YAML at line 3, column \d+/);
  });

  it('names the path of an invalid field', () => {
    const error = failure(VALID.replace('capability: chat', 'capability: telepathy'));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toMatch(/^test\.yaml: models\[0\]\.capability: /);
  });

  it('names unknown fields', () => {
    expect(failure('providers: []\nmodels: []\nextra: 1\n').message).toBe('test.yaml: (top level): unknown field(s) extra');
  });

  it('names a model without a provider', () => {
    const text = 'models:\n  - { id: lonely, displayName: L, capability: chat }\n';
    expect(failure(text).message).toMatch(/^test\.yaml: models\[0\]\.channels: model "lonely" needs a provider or channels/);
  });

  it('names an unset variable by path', () => {
    const error = failure('providers:\n  - { id: p, protocol: openai, baseUrl: "${NOT_SET_URL}" }\n');
    expect(error.message).toBe('test.yaml: providers[0].baseUrl: ${NOT_SET_URL} is not set (set it, or write ${NOT_SET_URL:-default})');
  });

  it('refuses a document that is not a mapping', () => {
    expect(failure('- just\n- a list\n').message).toMatch(/expected a mapping/);
  });
});
