import { Capability, ConsoleCatalogPage, ConsoleCatalogRequest, ProviderProtocol } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { CatalogPageRepository } from './catalog-page.repository';

/** A base URL's host alone: no path, query or credentials reach the console. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return '';
  }
}

/** The catalog as the operator console lists it: every model, public or not, with its channels in routing order. */
@Injectable()
export class CatalogPageService {
  constructor(@Inject(CatalogPageRepository) private readonly catalog: CatalogPageRepository) {}

  async page(request: z.output<typeof ConsoleCatalogRequest>): Promise<ConsoleCatalogPage> {
    const { models, total } = await this.catalog.page(request.offset, request.limit, request.search || undefined);
    return ConsoleCatalogPage.parse({
      data: models.map((model) => ({
        id: model.id,
        displayName: model.displayName,
        capability: Capability.parse(model.capability),
        isPublic: model.isPublic,
        channels: model.channels.map((channel) => ({
          id: channel.id,
          providerId: channel.providerId,
          protocol: ProviderProtocol.parse(channel.provider.protocol),
          host: hostOf(channel.provider.baseUrl),
          upstreamModel: channel.upstreamModel,
          priority: channel.priority,
          weight: channel.weight,
        })),
      })),
      total,
      offset: request.offset,
      limit: request.limit,
    });
  }
}
