import type { ModelList, ModelListQuery } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { usableByKey } from './key-models-view';
import { paginateModels } from './model-pagination';
import { VisibleModelsService } from './visible-models.service';

/** The msgc family pages by 20 as its vendor does; the openai SDK never pages, so oaic returns everything unless asked. */
const MSGC_DEFAULT_LIMIT = 20;

/** The models a key may use: its tenant's, less those the model lists of the key or its project refuse. */
@Injectable()
export class ModelsRoutes {
  constructor(private readonly models: VisibleModelsService) {}

  @RouteHandler('oaic.models.list')
  async listOaic(request: RouteRequest<ModelListQuery>): Promise<ModelList | undefined> {
    const tenant = await this.models.forTenant(request.key.tenantId);
    const query = request.query;
    const records = usableByKey(request.key, tenant.records);
    const unpaged = query.limit === undefined && query.after_id === undefined && query.before_id === undefined;
    if (unpaged && records === tenant.records) {
      void request.reply.type('application/json; charset=utf-8').send(tenant.allJson);
      return undefined;
    }
    return paginateModels(records, query, records.length);
  }

  @RouteHandler('msgc.models.list')
  async listMsgc(request: RouteRequest<ModelListQuery>): Promise<ModelList> {
    const tenant = await this.models.forTenant(request.key.tenantId);
    return paginateModels(usableByKey(request.key, tenant.records), request.query, MSGC_DEFAULT_LIMIT);
  }
}
