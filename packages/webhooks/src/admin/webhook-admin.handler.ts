import { RpcHandler } from '@gateway/platform';
import {
  GatewayError,
  WebhookDeliveriesRequest,
  WebhookRedeliverRequest,
  WebhookSecretRotateMessage,
  parseOrThrow,
  type WebhookDeliveryList,
  type WebhookDeliveryView,
  type WebhookSecretView,
  RPCS,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { WebhookDeliveryService } from '../delivery/webhook-delivery.service';
import { WebhookSecretService } from '../secrets/webhook-secret.service';
import { WebhookRepository, type DeliveryWithHistory } from '../store/webhook.repository';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function viewOf(row: DeliveryWithHistory): WebhookDeliveryView {
  return {
    id: row.id,
    taskId: row.subjectId,
    eventType: row.eventType,
    url: row.url,
    status: row.status as WebhookDeliveryView['status'],
    attempts: row.attempts,
    nextAttemptAt: iso(row.nextAttemptAt),
    createdAt: row.createdAt.toISOString(),
    deliveredAt: iso(row.deliveredAt),
    history: row.history.map((a) => ({
      attempt: a.attempt,
      outcome: a.outcome as WebhookDeliveryView['history'][number]['outcome'],
      responseStatus: a.responseStatus,
      latencyMs: a.latencyMs,
      error: a.error,
      startedAt: a.startedAt.toISOString(),
      nextAttemptAt: iso(a.nextAttemptAt),
    })),
  };
}

/** The operator's webhook subjects: rotate a tenant's secret, list a task's deliveries, redeliver one. */
@Controller()
export class WebhookAdminHandler {
  constructor(
    @Inject(WebhookSecretService) private readonly secrets: WebhookSecretService,
    @Inject(WebhookRepository) private readonly repository: WebhookRepository,
    @Inject(WebhookDeliveryService) private readonly delivery: WebhookDeliveryService,
  ) {}

  @RpcHandler(RPCS.music.webhooks.secretRotate)
  async rotate(@Payload() payload: unknown): Promise<WebhookSecretView> {
    const { tenant, tenantId, revokePrevious } = parseOrThrow(WebhookSecretRotateMessage, payload);
    const rotated = await this.secrets.rotate(tenantId, { revokePrevious });
    return { tenant, secret: rotated.secret, createdAt: rotated.createdAt.toISOString(), previousValidUntil: iso(rotated.previousValidUntil) };
  }

  @RpcHandler(RPCS.music.webhooks.deliveries)
  async deliveries(@Payload() payload: unknown): Promise<WebhookDeliveryList> {
    const { task } = parseOrThrow(WebhookDeliveriesRequest, payload);
    return { data: (await this.repository.listBySubject(task)).map(viewOf) };
  }

  @RpcHandler(RPCS.music.webhooks.redeliver)
  async redeliver(@Payload() payload: unknown): Promise<WebhookDeliveryView> {
    const { id } = parseOrThrow(WebhookRedeliverRequest, payload);
    const reopened = await this.delivery.redeliver(id);
    if (!reopened) {
      const existing = await this.repository.find(id);
      if (!existing) throw GatewayError.notFound(`No webhook delivery '${id}'.`, 'id');
      throw GatewayError.invalid(`The delivery '${id}' is still being attempted; redeliver it once it has been delivered or dead-lettered.`, 'id');
    }
    const [row] = (await this.repository.listBySubject(reopened.subjectId)).filter((d) => d.id === id);
    return viewOf(row!);
  }
}
