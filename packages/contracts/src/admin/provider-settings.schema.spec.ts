import { GatewayConfig } from './config.schema';

const azure = (provider: Record<string, unknown>) =>
  GatewayConfig.safeParse({ providers: [{ id: 'azure-east', protocol: 'azure-openai', baseUrl: 'https://res.openai.azure.com', ...provider }] });

function issues(result: ReturnType<typeof azure>): string[] {
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('provider settings', () => {
  it('takes an Azure provider keyed by api-key, with the deployment paths by default', () => {
    const result = azure({ apiKeyEnv: 'AZURE_OPENAI_KEY', settings: { apiVersion: '2024-10-21' } });
    expect(result.success && result.data.providers[0]!.settings).toEqual({ apiVersion: '2024-10-21', paths: 'deployments' });
  });

  it('takes Entra ID client credentials naming the secret variable', () => {
    const entra = { tenantId: 't', clientId: 'c', clientSecretEnv: 'AZURE_CLIENT_SECRET' };
    const result = azure({ settings: { paths: 'v1', entra } });
    expect(result.success && result.data.providers[0]!.settings).toEqual({ paths: 'v1', entra });
  });

  it('parses its own output again unchanged, as the CLI and the accounts service both parse a file', () => {
    const file = {
      providers: [
        { id: 'o', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
        { id: 'a', protocol: 'azure-openai', baseUrl: 'https://res.openai.azure.com', apiKey: 'k', settings: { apiVersion: '2024-10-21' } },
      ],
    };
    const once = GatewayConfig.parse(file);
    expect(GatewayConfig.parse(once)).toEqual(once);
    expect(once.providers.map((provider) => provider.settings)).toEqual([null, { apiVersion: '2024-10-21', paths: 'deployments' }]);
  });

  it('refuses what does not fit the protocol, naming the field', () => {
    expect(issues(azure({ apiKey: 'k', settings: {} }))).toEqual([
      'providers.0.settings.apiVersion: azure-openai: the deployment paths need an api-version (or set paths: v1)',
    ]);
    expect(issues(azure({ apiKey: 'k', settings: { paths: 'v1', region: 'x' } }))[0]).toMatch(
      /^providers\.0\.settings: azure-openai: Unrecognized key: "region"/,
    );
    expect(issues(azure({ settings: { paths: 'v1' } }))).toEqual(['providers.0.apiKeyEnv: an azure-openai provider needs apiKey, apiKeyEnv or settings.entra']);
    expect(issues(azure({ apiKey: 'k', settings: { paths: 'v1', entra: { tenantId: 't', clientId: 'c', clientSecretEnv: 'S' } } }))).toEqual([
      'providers.0.settings.entra: authenticate by apiKey/apiKeyEnv or by settings.entra, not both',
    ]);
    expect(issues(azure({ settings: { paths: 'v1', entra: { tenantId: 't', clientId: 'c', clientSecret: 'plain' } } })).join('\n')).toMatch(/clientSecret/);
    const openai = GatewayConfig.safeParse({
      providers: [{ id: 'o', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', settings: { apiVersion: 'x' } }],
    });
    expect(issues(openai)).toEqual(['providers.0.settings: the openai protocol takes no settings']);
  });
});
