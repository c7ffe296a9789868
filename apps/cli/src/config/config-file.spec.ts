import { CliError, EXIT } from '../cli-error';
import { parseConfigText, withCredentialFilesFrom } from './config-file';

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

describe('cloud providers in a config file', () => {
  const cloud = (provider: string) => `
providers:
${provider}
models: []
`;

  it('makes a relative credentialsFile absolute against the config file, and keeps an absolute one', () => {
    const text = cloud(`  - id: vertex
    protocol: vertex
    baseUrl: https://us-central1-aiplatform.googleapis.com
    settings: { project: acme-prod, location: us-central1, credentialsFile: keys/vertex.json }
  - id: bedrock
    protocol: bedrock
    baseUrl: https://bedrock-runtime.us-east-1.amazonaws.com
    settings: { region: us-east-1, credentialsFile: /var/run/secrets/aws/credentials }`);
    const config = withCredentialFilesFrom('/etc/gateway', parseConfigText(text, 'test.yaml', {}));
    expect(config.providers?.map((p) => (p.settings as { credentialsFile: string }).credentialsFile)).toEqual([
      '/etc/gateway/keys/vertex.json',
      '/var/run/secrets/aws/credentials',
    ]);
  });

  it.each([
    [
      'a Bedrock access key id without its secret',
      `  - { id: b, protocol: bedrock, baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com", settings: { region: us-east-1, accessKeyId: AKIAEXAMPLEEXAMPLE01 } }`,
      /providers\[0\]\.apiKeyEnv: settings\.accessKeyId needs its secret access key/,
    ],
    [
      'a Bedrock provider naming two credential sources',
      `  - { id: b, protocol: bedrock, baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com", settings: { region: us-east-1, credentials: workload, credentialsFile: /k } }`,
      /providers\[0\]\.settings\.credentials: bedrock: name one credential source, not credentialsFile and credentials/,
    ],
    [
      'a Bedrock provider naming none',
      `  - { id: b, protocol: bedrock, baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com", settings: { region: us-east-1 } }`,
      /providers\[0\]\.settings\.credentials: bedrock: name accessKeyId/,
    ],
    [
      'a Bedrock region that is no region',
      `  - { id: b, protocol: bedrock, baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com", settings: { region: Virginia, credentials: workload } }`,
      /providers\[0\]\.settings\.region: bedrock: an AWS region/,
    ],
    [
      'a Vertex provider with an api key',
      `  - { id: v, protocol: vertex, baseUrl: "https://aiplatform.googleapis.com", apiKey: k, settings: { project: acme-prod, location: global, credentials: workload } }`,
      /providers\[0\]\.apiKeyEnv: a vertex provider authenticates by settings\.credentialsFile or settings\.credentials/,
    ],
    [
      'a Vertex provider without a project',
      `  - { id: v, protocol: vertex, baseUrl: "https://aiplatform.googleapis.com", settings: { location: global, credentials: workload } }`,
      /providers\[0\]\.settings\.project/,
    ],
  ])('refuses %s, naming the field', (_name, provider, message) => {
    expect(failure(cloud(provider)).message).toMatch(message);
  });
});
