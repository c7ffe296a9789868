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

/** A credentials file mounted into the processes that send (a Kubernetes Secret): read again when it changes. */
const CredentialsFile = z.string().min(1);
/** The platform's own identity: IRSA or the node chain on AWS, workload identity or application default credentials on Google. */
const Workload = z.literal('workload');

function oneCredentialSource(sources: readonly (readonly [string, unknown])[], ctx: z.RefinementCtx, hint: string): void {
  const named = sources.filter(([, value]) => value !== undefined);
  if (named.length > 1) {
    ctx.addIssue({ code: 'custom', path: [named[1]![0]], message: `name one credential source, not ${named.map(([name]) => name).join(' and ')}` });
  } else if (named.length === 0 && hint) {
    ctx.addIssue({ code: 'custom', path: ['credentials'], message: hint });
  }
}

/**
 * Amazon Bedrock: the region signed for, and where the credentials come from: an access key id with the
 * provider's apiKey/apiKeyEnv as its secret, a shared credentials file (`profile` in it), or the workload's
 * own identity (environment, web identity, container or instance role, through the AWS SDK's chain).
 */
export const BedrockSettings = z
  .object({
    region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'an AWS region such as us-east-1'),
    accessKeyId: z
      .string()
      .regex(/^[A-Z0-9]{16,128}$/, 'an AWS access key id (A-Z, 0-9)')
      .optional(),
    credentialsFile: CredentialsFile.optional(),
    profile: z.string().min(1).optional(),
    credentials: Workload.optional(),
  })
  .strict()
  .superRefine((settings, ctx) => {
    const sources = [
      ['accessKeyId', settings.accessKeyId],
      ['credentialsFile', settings.credentialsFile],
      ['credentials', settings.credentials],
    ] as const;
    oneCredentialSource(sources, ctx, 'name accessKeyId (with apiKey or apiKeyEnv), credentialsFile, or credentials: workload');
    if (settings.profile !== undefined && settings.credentialsFile === undefined) {
      ctx.addIssue({ code: 'custom', path: ['profile'], message: 'a profile is read from credentialsFile' });
    }
  });
export type BedrockSettings = z.output<typeof BedrockSettings>;

/** Google Vertex AI: the project and location of every call, and a service-account key file or the workload's identity. */
export const VertexSettings = z
  .object({
    project: z.string().regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, 'a Google Cloud project id'),
    location: z.string().regex(/^[a-z0-9-]+$/, 'a Vertex location such as us-central1 or global'),
    credentialsFile: CredentialsFile.optional(),
    credentials: Workload.optional(),
    /** Another token endpoint than Google's for the key file's assertions (a private endpoint, the sandbox). */
    tokenUrl: z.url().optional(),
  })
  .strict()
  .superRefine((settings, ctx) => {
    const sources = [
      ['credentialsFile', settings.credentialsFile],
      ['credentials', settings.credentials],
    ] as const;
    oneCredentialSource(sources, ctx, 'name credentialsFile (a service-account key) or credentials: workload');
    if (settings.tokenUrl !== undefined && settings.credentialsFile === undefined) {
      ctx.addIssue({ code: 'custom', path: ['tokenUrl'], message: 'a token endpoint is for the assertions of a credentialsFile' });
    }
  });
export type VertexSettings = z.output<typeof VertexSettings>;

/** The settings schema of each protocol that takes any; a protocol absent here takes none. */
export const PROVIDER_SETTINGS = { 'azure-openai': AzureOpenaiSettings, bedrock: BedrockSettings, vertex: VertexSettings } as const;
export type SettingsProtocol = keyof typeof PROVIDER_SETTINGS;
export type ProviderSettings = z.output<(typeof PROVIDER_SETTINGS)[SettingsProtocol]>;

/** Settings as stored and carried on a channel: parsed again by the protocol that reads them. */
export const StoredProviderSettings = z.record(z.string(), z.unknown());
export type StoredProviderSettings = z.infer<typeof StoredProviderSettings>;

export function takesSettings(protocol: string): protocol is SettingsProtocol {
  return protocol in PROVIDER_SETTINGS;
}
