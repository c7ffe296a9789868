import {
  Capability,
  CatalogChannelsReply,
  formatMicros,
  GatewayError,
  PriceOverride,
  VisibleModelsReply,
  type ConsoleModel,
  type ConsolePrices,
} from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { CatalogRepository, type ModelWithChannels } from './catalog.repository';
import { catalogPricesOf } from './stored-prices';

type Provider = ModelWithChannels['channels'][number]['provider'];
type PricedModel = Awaited<ReturnType<CatalogRepository['pricedFor']>>['models'][number];

const StoredOverrides = z.record(z.string(), PriceOverride);

/** A model's prices as decimals, an override's fields taking the place of the catalog's; a zero price is no price. */
function pricesOf(model: PricedModel, override: PriceOverride | undefined): ConsolePrices {
  const fields: [keyof ConsolePrices, bigint | null][] = [
    ['inputPerMTok', model.inputMicrosPerMTok],
    ['outputPerMTok', model.outputMicrosPerMTok],
    ['cachedInputPerMTok', model.cachedInputMicrosPerMTok],
    ['cacheWritePerMTok', model.cacheWriteMicrosPerMTok],
    ['cacheHitPerMTok', model.cacheHitMicrosPerMTok],
    ['perImage', model.perImageMicros],
    ['perSecond', model.perSecondMicros],
    ['perTask', model.perTaskMicros],
  ];
  const prices: ConsolePrices = {};
  for (const [field, catalog] of fields) {
    const micros = override?.[field] !== undefined ? BigInt(override[field]) : catalog;
    if (micros !== null && micros > 0n) prices[field] = formatMicros(micros);
  }
  return prices;
}

/** A provider's secret: stored inline, or read from the environment variable it names (kept out of the database). */
export function resolveProviderKey(provider: Pick<Provider, 'apiKey' | 'apiKeyEnv'>, env: NodeJS.ProcessEnv = process.env): string | null {
  if (provider.apiKey) return provider.apiKey;
  if (provider.apiKeyEnv) return env[provider.apiKeyEnv] || null;
  return null;
}

@Injectable()
export class CatalogService {
  constructor(@Inject(CatalogRepository) private readonly catalog: CatalogRepository) {}

  async visible(tenantId: string): Promise<VisibleModelsReply> {
    if (!z.uuid().safeParse(tenantId).success) throw GatewayError.invalid(`tenantId "${tenantId}" is not a tenant id`, 'tenantId');
    const models = await this.catalog.visibleTo(tenantId);
    // Rows come from the database as plain strings: parse so an unknown capability fails here, not at a client.
    return VisibleModelsReply.parse(models.map((model) => ({ ...model, createdAt: model.createdAt.toISOString() })));
  }

  /** What the tenant console's model page lists: every model the tenant may use, with the prices it pays. */
  async priced(tenantId: string): Promise<{ data: ConsoleModel[] }> {
    const { models, priceOverrides } = await this.catalog.pricedFor(tenantId);
    // A malformed stored override is ignored, as billing ignores it: the catalog price applies.
    const parsed = StoredOverrides.safeParse(priceOverrides);
    const overrides = parsed.success ? parsed.data : {};
    return {
      data: models.map((model) => ({
        id: model.id,
        displayName: model.displayName,
        capability: Capability.parse(model.capability),
        prices: pricesOf(model, overrides[model.id]),
        overridden: overrides[model.id] !== undefined,
      })),
    };
  }

  async channels(modelId: string): Promise<CatalogChannelsReply> {
    const model = await this.catalog.withChannels(modelId);
    if (!model) throw new GatewayError('model_not_found', `The model "${modelId}" does not exist`, 'model');
    return CatalogChannelsReply.parse({
      model: {
        id: model.id,
        capability: Capability.parse(model.capability),
        defaultMaxTokens: model.defaultMaxTokens,
        prices: catalogPricesOf(model),
      },
      channels: model.channels.map((channel) => ({
        id: channel.id,
        providerId: channel.providerId,
        protocol: channel.provider.protocol,
        baseUrl: channel.provider.baseUrl,
        apiKey: resolveProviderKey(channel.provider),
        settings: channel.provider.settings ?? null,
        upstreamModel: channel.upstreamModel,
        priority: channel.priority,
        weight: channel.weight,
        nativeBatch: channel.nativeBatch,
        assistants: channel.assistants,
        callbacks: channel.callbacks,
      })),
    });
  }
}
