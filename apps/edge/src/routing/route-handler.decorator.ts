import { SetMetadata } from '@nestjs/common';

export const ROUTE_HANDLER_ID = 'gateway:route-handler-id';

/**
 * Binds a provider method to a route of the contract's route table by its id (e.g. `oaic.models.list`).
 * The route registrar discovers these and registers one Fastify route per table entry with that id.
 */
export const RouteHandler = (routeId: string): MethodDecorator => SetMetadata(ROUTE_HANDLER_ID, routeId);
