// A provider's non-secret, protocol-specific settings: validated per protocol when a config is applied,
// stored with the provider, and carried on its channels to the processes that send. Secrets never appear
// here, only the names of the environment variables that hold them.
import { z } from 'zod';

export const EnvVarName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name (A-Z, 0-9, _)');

/** Microsoft Entra ID client credentials: the secret is read from `clientSecretEnv` by the process that sends. */
export const AzureEntraSettings = z
  .object({
    tenantId: z.string().min(1),
    clientId: z.string().min(1),
    clientSecretEnv: EnvVarName,
    /** The identity platform's host; Azure public cloud when absent. */
    authorityHost: z.url().optional(),
  })
  .strict();
export type AzureEntraSettings = z.infer<typeof AzureEntraSettings>;

export const AzureOpenaiSettings = z
  .object({
    /** `api-version` of every call on the deployment paths. */
    apiVersion: z.string().min(1).optional(),
    /** `deployments`: `/openai/deployments/{deployment}/…?api-version=`; `v1`: `/openai/v1/…` with the model in the body. */
    paths: z.enum(['deployments', 'v1']).default('deployments'),
    entra: AzureEntraSettings.optional(),
  })
  .strict()
  .superRefine((settings, ctx) => {
    if (settings.paths === 'deployments' && !settings.apiVersion) {
      ctx.addIssue({ code: 'custom', path: ['apiVersion'], message: 'the deployment paths need an api-version (or set paths: v1)' });
    }
  });
export type AzureOpenaiSettings = z.output<typeof AzureOpenaiSettings>;

/** The settings schema of each protocol that takes any; a protocol absent here takes none. */
export const PROVIDER_SETTINGS = { 'azure-openai': AzureOpenaiSettings } as const;
export type SettingsProtocol = keyof typeof PROVIDER_SETTINGS;

/** Settings as stored and carried on a channel: parsed again by the protocol that reads them. */
export const StoredProviderSettings = z.record(z.string(), z.unknown());
export type StoredProviderSettings = z.infer<typeof StoredProviderSettings>;

export function takesSettings(protocol: string): protocol is SettingsProtocol {
  return protocol in PROVIDER_SETTINGS;
}
