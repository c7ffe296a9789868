import type { GatewayConfig } from '@gateway/contracts';
import { changedFields, invalidAt, record, rejectDuplicates } from './config-diff';
import type { ApplyPlan, ChannelRow, CurrentState, ModelRow, ProviderRow } from './config-plan.types';

type ModelConfig = GatewayConfig['models'][number];

const PROVIDER_FIELDS = ['protocol', 'baseUrl', 'apiKey', 'apiKeyEnv', 'settings'] as const;
const MODEL_FIELDS = [
  'displayName',
  'capability',
  'isPublic',
  'createdAt',
  'inputMicrosPerMTok',
  'outputMicrosPerMTok',
  'perImageMicros',
  'perSecondMicros',
  'perTaskMicros',
  'cachedInputMicrosPerMTok',
  'cacheWriteMicrosPerMTok',
  'cacheHitMicrosPerMTok',
  'defaultMaxTokens',
] as const;

export function planProviders(config: GatewayConfig, state: CurrentState, plan: ApplyPlan): void {
  rejectDuplicates(
    config.providers,
    (p) => p.id,
    (i) => `providers[${i}].id`,
    'provider',
  );
  for (const provider of config.providers) {
    const desired: ProviderRow = {
      id: provider.id,
      protocol: provider.protocol,
      baseUrl: provider.baseUrl,
      apiKey: provider.apiKey ?? null,
      apiKeyEnv: provider.apiKeyEnv ?? null,
      settings: provider.settings,
    };
    const current = state.providers.get(provider.id);
    if (!current) {
      plan.providers.create.push(desired);
      record(plan, `provider ${provider.id}`, 'created');
      continue;
    }
    const changed = changedFields(current, desired, PROVIDER_FIELDS);
    if (changed.length) plan.providers.update.push(desired);
    record(plan, `provider ${provider.id}`, changed);
  }
}

function desiredModel(model: ModelConfig, current: ModelRow | undefined, now: Date): ModelRow {
  return {
    id: model.id,
    displayName: model.displayName,
    capability: model.capability,
    isPublic: model.public,
    // Without a date in the file a model keeps the time it was first published.
    createdAt: model.createdAt ? new Date(model.createdAt) : (current?.createdAt ?? now),
    inputMicrosPerMTok: model.prices.inputPerMTok ?? 0n,
    outputMicrosPerMTok: model.prices.outputPerMTok ?? 0n,
    perImageMicros: model.prices.perImage ?? 0n,
    perSecondMicros: model.prices.perSecond ?? 0n,
    perTaskMicros: model.prices.perTask ?? 0n,
    cachedInputMicrosPerMTok: model.prices.cachedInputPerMTok ?? null,
    cacheWriteMicrosPerMTok: model.prices.cacheWritePerMTok ?? null,
    cacheHitMicrosPerMTok: model.prices.cacheHitPerMTok ?? 0n,
    defaultMaxTokens: model.maxOutputTokens,
  };
}

const channelKey = (c: { providerId: string; upstreamModel: string }) => `${c.providerId}/${c.upstreamModel}`;

/** Makes the model's channel set exactly the listed one; returns the change labels for the model's line. */
function planChannels(model: ModelConfig, index: number, knownProviders: Set<string>, state: CurrentState, plan: ApplyPlan): string[] {
  model.channels.forEach((channel, i) => {
    if (!knownProviders.has(channel.provider)) {
      throw invalidAt(`models[${index}].channels[${i}].provider`, `provider "${channel.provider}" is not defined in the file or the database`);
    }
  });
  rejectDuplicates(
    model.channels,
    (c) => `${c.provider}/${c.upstreamModel}`,
    (i) => `models[${index}].channels[${i}]`,
    'channel',
  );
  const existing = new Map((state.channelsByModel.get(model.id) ?? []).map((c) => [channelKey(c), c] as const));
  const labels: string[] = [];
  for (const channel of model.channels) {
    const desired = {
      modelId: model.id,
      providerId: channel.provider,
      upstreamModel: channel.upstreamModel,
      priority: channel.priority,
      weight: channel.weight,
      nativeBatch: channel.nativeBatch,
      assistants: channel.assistants,
      callbacks: channel.callbacks,
    };
    const key = channelKey(desired);
    const current: ChannelRow | undefined = existing.get(key);
    existing.delete(key);
    if (!current) {
      plan.channels.create.push(desired);
      labels.push(`+channel ${key}`);
    } else if (
      current.priority !== desired.priority ||
      current.weight !== desired.weight ||
      current.nativeBatch !== desired.nativeBatch ||
      current.assistants !== desired.assistants ||
      current.callbacks !== desired.callbacks
    ) {
      const { priority, weight, nativeBatch, assistants, callbacks } = desired;
      plan.channels.update.push({ id: current.id, priority, weight, nativeBatch, assistants, callbacks });
      labels.push(`~channel ${key}`);
    }
  }
  for (const [key, stale] of existing) {
    plan.channels.delete.push(stale.id);
    labels.push(`-channel ${key}`);
  }
  return labels;
}

export function planModels(config: GatewayConfig, state: CurrentState, plan: ApplyPlan, now: Date): void {
  rejectDuplicates(
    config.models,
    (m) => m.id,
    (i) => `models[${i}].id`,
    'model',
  );
  const knownProviders = new Set([...state.providers.keys(), ...config.providers.map((p) => p.id)]);
  config.models.forEach((model, index) => {
    const current = state.models.get(model.id);
    const desired = desiredModel(model, current, now);
    const channelLabels = planChannels(model, index, knownProviders, state, plan);
    if (!current) {
      plan.models.create.push(desired);
      record(plan, `model ${model.id}`, 'created');
      return;
    }
    const changed = changedFields(current, desired, MODEL_FIELDS);
    if (changed.length) plan.models.update.push(desired);
    record(plan, `model ${model.id}`, [...changed, ...channelLabels]);
  });
}
