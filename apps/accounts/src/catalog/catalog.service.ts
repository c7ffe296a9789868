import { Capability, CatalogChannelsReply, GatewayError, VisibleModelsReply } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { CatalogRepository, type ModelWithChannels } from './catalog.repository';

type Provider = ModelWithChannels['channels'][number]['provider'];

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

  async channels(modelId: string): Promise<CatalogChannelsReply> {
    const model = await this.catalog.withChannels(modelId);
    if (!model) throw new GatewayError('model_not_found', `The model "${modelId}" does not exist`, 'model');
    return CatalogChannelsReply.parse({
      model: {
        id: model.id,
        capability: Capability.parse(model.capability),
        defaultMaxTokens: model.defaultMaxTokens,
        prices: {
          inputPerMTok: model.inputMicrosPerMTok.toString(),
          outputPerMTok: model.outputMicrosPerMTok.toString(),
          perImage: model.perImageMicros.toString(),
          perSecond: model.perSecondMicros.toString(),
          perTask: model.perTaskMicros.toString(),
          ...(model.cachedInputMicrosPerMTok !== null ? { cachedInputPerMTok: model.cachedInputMicrosPerMTok.toString() } : {}),
          ...(model.cacheWriteMicrosPerMTok !== null ? { cacheWritePerMTok: model.cacheWriteMicrosPerMTok.toString() } : {}),
        },
      },
      channels: model.channels.map((channel) => ({
        id: channel.id,
        providerId: channel.providerId,
        protocol: channel.provider.protocol,
        baseUrl: channel.provider.baseUrl,
        apiKey: resolveProviderKey(channel.provider),
        upstreamModel: channel.upstreamModel,
        priority: channel.priority,
        weight: channel.weight,
        nativeBatch: channel.nativeBatch,
        assistants: channel.assistants,
      })),
    });
  }
}
