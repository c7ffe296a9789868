import type { ModelList, ModelListQuery } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { paginateModels } from './model-pagination';
import { VisibleModelsService } from './visible-models.service';

/** The msgc family pages by 20 as its vendor does; the openai SDK never pages, so oaic returns everything unless asked. */
const MSGC_DEFAULT_LIMIT = 20;

@Injectable()
export class ModelsRoutes {
  constructor(private readonly models: VisibleModelsService) {}

  @RouteHandler('oaic.models.list')
  async listOaic(request: RouteRequest<ModelListQuery>): Promise<ModelList | undefined> {
    const tenant = await this.models.forTenant(request.key.tenantId);
    const query = request.query;
    if (query.limit === undefined && query.after_id === undefined && query.before_id === undefined) {
      void request.reply.type('application/json; charset=utf-8').send(tenant.allJson);
      return undefined;
    }
    return paginateModels(tenant.records, query, tenant.records.length);
  }

  @RouteHandler('msgc.models.list')
  async listMsgc(request: RouteRequest<ModelListQuery>): Promise<ModelList> {
    const tenant = await this.models.forTenant(request.key.tenantId);
    return paginateModels(tenant.records, request.query, MSGC_DEFAULT_LIMIT);
  }
}
