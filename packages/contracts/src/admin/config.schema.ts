import { CacheSettings } from '../cache/response-cache.schema';
import { z } from 'zod';
import { BillingMode } from '../accounts/key.schema';
import { KeyModels } from '../accounts/key-models';
import { ProjectName } from '../accounts/project.schema';
import { BudgetAlertAt, BudgetMode, BudgetPeriod, DEFAULT_ALERT_AT } from '../budgets/budget.schema';
import { Capability } from '../accounts/catalog.schema';
import { MoneyAmount } from '../money';
import { TenantLimitsConfig } from '../billing/limits.schema';
import {
  type AzureOpenaiSettings,
  type BedrockSettings,
  EnvVarName,
  PROVIDER_SETTINGS,
  type ProviderSettings,
  type SettingsProtocol,
  StoredProviderSettings,
  takesSettings,
} from './provider-settings.schema';

/** Upstream protocols a provider may speak. */
export const ProviderProtocol = z.enum(['openai', 'anthropic', 'gemini', 'dashscope', 'kling', 'music', 'azure-openai', 'bedrock', 'vertex']);
export type ProviderProtocol = z.infer<typeof ProviderProtocol>;

const Slug = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, 'lowercase letters, digits, ".", "_" or "-"');
const ModelId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/, 'letters, digits and . _ : / -');

/** "30d", "12h", "90m", "45s" or a number of seconds. */
export const Duration = z.union([z.number().int().positive(), z.string()]).transform((value, ctx) => {
  if (typeof value === 'number') return value;
  const match = /^(\d+)\s*([smhd])$/.exec(value.trim());
  if (!match) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a duration like 30d, 12h, 90m or 45s` });
    return z.NEVER;
  }
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[match[2] as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
});

/** Whether a cloud provider's key (apiKey/apiKeyEnv) agrees with the credential source its settings name. */
function cloudSecretIssue(protocol: SettingsProtocol, settings: ProviderSettings, keyed: boolean): { path: string[]; message: string } | null {
  if (protocol === 'azure-openai') {
    const { entra } = settings as AzureOpenaiSettings;
    if (entra && keyed) return { path: ['settings', 'entra'], message: 'authenticate by apiKey/apiKeyEnv or by settings.entra, not both' };
    if (!entra && !keyed) return { path: ['apiKeyEnv'], message: `an ${protocol} provider needs apiKey, apiKeyEnv or settings.entra` };
    return null;
  }
  if (protocol === 'bedrock') {
    const { accessKeyId } = settings as BedrockSettings;
    if (accessKeyId && !keyed) return { path: ['apiKeyEnv'], message: 'settings.accessKeyId needs its secret access key in apiKey or apiKeyEnv' };
    if (!accessKeyId && keyed) return { path: ['apiKeyEnv'], message: 'a bedrock apiKey/apiKeyEnv is the secret of settings.accessKeyId, which is not set' };
    return null;
  }
  return keyed ? { path: ['apiKeyEnv'], message: 'a vertex provider authenticates by settings.credentialsFile or settings.credentials, not an api key' } : null;
}

export const ProviderConfig = z
  .object({
    id: Slug,
    protocol: ProviderProtocol,
    baseUrl: z.url(),
    apiKey: z.string().min(1).optional(),
    apiKeyEnv: EnvVarName.optional(),
    /** Non-secret settings of the protocol (see provider-settings.schema.ts). */
    settings: StoredProviderSettings.nullish(),
  })
  .strict()
  .transform((provider, ctx) => {
    const { settings, ...rest } = provider;
    if (!takesSettings(provider.protocol)) {
      if (settings != null) ctx.addIssue({ code: 'custom', path: ['settings'], message: `the ${provider.protocol} protocol takes no settings` });
      return { ...rest, settings: null };
    }
    const parsed = PROVIDER_SETTINGS[provider.protocol].safeParse(settings ?? {});
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', path: ['settings', ...issue.path.map(String)], message: `${provider.protocol}: ${issue.message}` });
      }
      return z.NEVER;
    }
    const keyed = provider.apiKey !== undefined || provider.apiKeyEnv !== undefined;
    const secretIssue = cloudSecretIssue(provider.protocol, parsed.data, keyed);
    if (secretIssue) ctx.addIssue({ code: 'custom', ...secretIssue });
    return { ...rest, settings: parsed.data as StoredProviderSettings };
  });

export const ChannelConfig = z
  .object({
    provider: Slug,
    upstreamModel: z.string().min(1),
    priority: z.number().int().default(0),
    weight: z.number().int().positive().default(1),
    /** The upstream runs whole JSONL batches through its own batch API. */
    nativeBatch: z.boolean().default(false),
    /** The upstream serves the assistants, threads and runs API. */
    assistants: z.boolean().default(false),
    /** Media tasks pass the upstream a callback URL for their end (Kling-style `callback_url`); polls become a safety net. */
    callbacks: z.boolean().default(false),
  })
  .strict();

export const PriceConfig = z
  .object({
    inputPerMTok: MoneyAmount.optional(),
    outputPerMTok: MoneyAmount.optional(),
    perImage: MoneyAmount.optional(),
    perSecond: MoneyAmount.optional(),
    perTask: MoneyAmount.optional(),
    /** Prompt tokens read from an upstream's prompt cache; without it they cost the input price. */
    cachedInputPerMTok: MoneyAmount.optional(),
    /** Prompt tokens written to an upstream's prompt cache; without it they cost the input price. */
    cacheWritePerMTok: MoneyAmount.optional(),
    /** Input and output tokens of an answer served from the gateway's response cache; without it, free. */
    cacheHitPerMTok: MoneyAmount.optional(),
  })
  .strict();

export const ModelConfig = z
  .object({
    id: ModelId,
    displayName: z.string().min(1),
    capability: Capability,
    public: z.boolean().default(true),
    createdAt: z.iso.datetime({ offset: true }).optional(),
    /** Shorthand for a single channel. */
    provider: Slug.optional(),
    upstreamModel: z.string().min(1).optional(),
    /** Flags of the shorthand channel (see ChannelConfig). */
    nativeBatch: z.boolean().default(false),
    assistants: z.boolean().default(false),
    callbacks: z.boolean().default(false),
    channels: z.array(ChannelConfig).optional(),
    prices: PriceConfig.default({}),
    maxOutputTokens: z.number().int().positive().default(4096),
  })
  .strict()
  .transform((model, ctx) => {
    const channels = model.channels ?? [];
    if (model.provider) {
      channels.unshift({
        provider: model.provider,
        upstreamModel: model.upstreamModel ?? model.id,
        priority: 0,
        weight: 1,
        nativeBatch: model.nativeBatch,
        assistants: model.assistants,
        callbacks: model.callbacks,
      });
    }
    if (channels.length === 0) ctx.addIssue({ code: 'custom', message: `model "${model.id}" needs a provider or channels`, path: ['channels'] });
    const { provider: _p, upstreamModel: _u, nativeBatch: _n, assistants: _a, callbacks: _c, ...rest } = model;
    return { ...rest, channels };
  });

export const PlanConfig = z
  .object({
    name: Slug,
    quota: z.union([z.object({ credit: MoneyAmount }).strict(), z.object({ requests: z.number().int().positive() }).strict()]),
    period: Duration,
  })
  .strict();

/** A project's budget as the file writes it: hard and alerting at 50, 80 and 100 % unless it says otherwise. */
export const ProjectBudgetConfig = z
  .object({
    amount: MoneyAmount,
    period: BudgetPeriod,
    mode: BudgetMode.default('hard'),
    alertAt: BudgetAlertAt.default(DEFAULT_ALERT_AT),
  })
  .strict();

/** A listed project: its model lists become the file's (absent: empty) and its budget the file's (absent: none). */
export const ProjectConfig = z
  .object({
    name: ProjectName,
    models: KeyModels.default([]),
    denyModels: KeyModels.default([]),
    budget: ProjectBudgetConfig.optional(),
  })
  .strict();

export const TenantConfig = z
  .object({
    slug: Slug,
    name: z.string().min(1).optional(),
    billing: BillingMode.default('payg'),
    plan: Slug.optional(),
    expires: z.iso.datetime({ offset: true }).optional(),
    /** Private models this tenant may see, beside every public one. */
    models: z.array(ModelId).default([]),
    featureControls: z.record(z.string(), z.boolean()).default({}),
    /** Rate limits: tenant-wide values and `perKey` defaults for each key. */
    limits: TenantLimitsConfig.optional(),
    /** The response cache (off unless set); a file without it keeps what is stored. */
    cache: CacheSettings.optional(),
    /** Projects to create or set; a file without them keeps what is stored, and unlisted projects are never deleted. */
    projects: z.array(ProjectConfig).optional(),
  })
  .strict();

/** The declarative file `gatewayctl apply -f` sends. */
export const GatewayConfig = z
  .object({
    providers: z.array(ProviderConfig).default([]),
    models: z.array(ModelConfig).default([]),
    plans: z.array(PlanConfig).default([]),
    tenants: z.array(TenantConfig).default([]),
  })
  .strict();
export type GatewayConfigInput = z.input<typeof GatewayConfig>;
export type GatewayConfig = z.output<typeof GatewayConfig>;
