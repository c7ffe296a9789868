// A provider's protocol settings applied from a file, stored with it, and carried on its channels to the
// services that send; only the names of secret variables travel.
import { ApplyResult, CatalogChannelsReply, SUBJECTS, type GatewayConfigInput } from '@gateway/contracts';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;

function azureFile(apiVersion: string): GatewayConfigInput {
  return {
    providers: [
      {
        id: 'azure-east',
        protocol: 'azure-openai',
        baseUrl: 'https://res.openai.azure.com',
        settings: { apiVersion, entra: { tenantId: 'tenant-1', clientId: 'client-1', clientSecretEnv: 'AZURE_SPEC_CLIENT_SECRET' } },
      },
    ],
    models: [{ id: 'azure-gpt', displayName: 'Azure GPT', capability: 'chat', provider: 'azure-east', upstreamModel: 'gpt-4o-prod' }],
  };
}

describe('provider settings through apply and the catalog', () => {
  let h: AccountsHarness;
  const apply = (file: GatewayConfigInput) => h.bus.request(S.config.apply, file, ApplyResult);

  beforeAll(async () => {
    h = await startAccountsHarness('accounts_provider_settings');
  }, 60_000);

  afterAll(async () => h?.stop());

  it('stores the settings, carries them on the channels, and updates the provider when they change', async () => {
    await expect(apply(azureFile('2024-10-21'))).resolves.toMatchObject({ created: 2 });
    const routed = await h.bus.request(S.catalog.channels, { modelId: 'azure-gpt' }, CatalogChannelsReply);
    expect(routed.channels).toEqual([
      expect.objectContaining({
        protocol: 'azure-openai',
        upstreamModel: 'gpt-4o-prod',
        apiKey: null,
        settings: {
          apiVersion: '2024-10-21',
          paths: 'deployments',
          entra: { tenantId: 'tenant-1', clientId: 'client-1', clientSecretEnv: 'AZURE_SPEC_CLIENT_SECRET' },
        },
      }),
    ]);

    await expect(apply(azureFile('2024-10-21'))).resolves.toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const changed = await apply(azureFile('2025-04-01-preview'));
    expect(changed.changes).toEqual(['provider azure-east: updated (settings)']);
    const again = await h.bus.request(S.catalog.channels, { modelId: 'azure-gpt' }, CatalogChannelsReply);
    expect(again.channels[0]!.settings).toMatchObject({ apiVersion: '2025-04-01-preview' });
  });

  it('refuses settings that do not fit the protocol, naming the field', async () => {
    const file = azureFile('2024-10-21');
    const refused = await apply({ ...file, providers: [{ ...file.providers![0]!, apiKey: 'k' }] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'invalid_request' });
    expect(String((refused as Error).message)).toContain('settings.entra');
  });
});
