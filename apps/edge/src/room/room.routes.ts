import {
  DEFAULT_FEATURE_CONTROLS,
  type KeyContext,
  type RoomEnterpriseContextAnswer,
  type RoomKeyContextAnswer,
  type RoomModelsAnswer,
  type RoomModelsQuery,
} from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { VisibleModelsService } from '../models/visible-models.service';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { selectRoomModels } from './room-scope';

/** Every tenant answers every default flag, whatever subset its own settings name. */
function featureControls(key: KeyContext): Record<string, boolean> {
  return { ...DEFAULT_FEATURE_CONTROLS, ...key.featureControls };
}

@Injectable()
export class RoomRoutes {
  constructor(private readonly visibleModels: VisibleModelsService) {}

  @RouteHandler('room.models')
  async listModels(request: RouteRequest<RoomModelsQuery>): Promise<RoomModelsAnswer> {
    const tenant = await this.visibleModels.forTenant(request.key.tenantId);
    return { success: true, data: selectRoomModels(tenant.models, request.query.scope, request.query.limit) };
  }

  @RouteHandler('room.enterprise-context')
  enterpriseContext(request: RouteRequest): RoomEnterpriseContextAnswer {
    return { success: true, data: { featureControls: featureControls(request.key) } };
  }

  @RouteHandler('room.key-context')
  keyContext(request: RouteRequest): RoomKeyContextAnswer {
    const { key } = request;
    return {
      success: true,
      data: {
        userId: key.tenantId,
        tenantSlug: key.tenantSlug,
        apiKeyId: key.keyId,
        keyName: key.keyName,
        kind: key.kind,
        featureControls: featureControls(key),
      },
    };
  }
}
