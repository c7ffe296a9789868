import {
  ConsoleDeliveriesMessage,
  ConsoleRedeliverMessage,
  GatewayError,
  parseOrThrow,
  type ConsoleDeliveryPage,
  type WebhookDeliveryView,
  RPCS,
} from '@gateway/contracts';
import { decodeCursor, encodeCursor, RpcHandler } from '@gateway/platform';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { WebhookDeliveryService } from '../delivery/webhook-delivery.service';
import { WebhookRepository } from '../store/webhook.repository';
import { viewOf } from './webhook-admin.handler';

/** The tenant console's webhook subjects: its deliveries page by page with every attempt, and redelivering one of its own. */
@Controller()
export class WebhookConsoleHandler {
  constructor(
    @Inject(WebhookRepository) private readonly repository: WebhookRepository,
    @Inject(WebhookDeliveryService) private readonly delivery: WebhookDeliveryService,
  ) {}

  @RpcHandler(RPCS.music.webhooks.console.deliveries)
  async deliveries(@Payload() payload: unknown): Promise<ConsoleDeliveryPage> {
    const query = parseOrThrow(ConsoleDeliveriesMessage, payload);
    const position = decodeCursor(query.cursor);
    const rows = await this.repository.listForTenant(query.tenantId, {
      status: query.status,
      after: position ? { at: new Date(position.at), id: position.id } : null,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { data: page.map(viewOf), nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.createdAt.toISOString(), id: last.id }) : null };
  }

  @RpcHandler(RPCS.music.webhooks.console.redeliver)
  async redeliver(@Payload() payload: unknown): Promise<WebhookDeliveryView> {
    const { id, tenantId } = parseOrThrow(ConsoleRedeliverMessage, payload);
    // Another tenant's delivery is as absent as one that never existed.
    if (!(await this.repository.findForTenant(id, tenantId))) throw GatewayError.notFound(`No webhook delivery '${id}'.`, 'id');
    if (!(await this.delivery.redeliver(id))) {
      throw GatewayError.invalid(`The delivery '${id}' is still being attempted; redeliver it once it has been delivered or failed for good.`, 'id');
    }
    return viewOf((await this.repository.findForTenant(id, tenantId))!);
  }
}
