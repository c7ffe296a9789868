import { randomBytes } from 'node:crypto';
import type { WebhookDeliveryService } from '../delivery/webhook-delivery.service';
import type { WebhookRepository } from '../store/webhook.repository';

export interface WebhookEvent {
  tenantId: string;
  /** What the events are about (a task id): ordering and the listing go by it. */
  subjectId: string;
  eventType: string;
  /** Position of this event type within the subject's life: lower is delivered first. */
  seq: number;
  url: string;
  payload: unknown;
}

function deliveryId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

/**
 * Where a service hands over events to deliver. An event already recorded for its (subject, event type)
 * is not recorded again, so a duplicated source event never causes a second delivery, and the first
 * record's id stays the event's `webhook-id`.
 */
export class WebhookOutbox {
  constructor(
    private readonly repository: WebhookRepository,
    private readonly delivery: WebhookDeliveryService,
  ) {}

  async publish(events: readonly WebhookEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const { inserted, heads, unsettled } = await this.repository.insert(events.map((event) => ({ id: deliveryId(), ...event })));
    await this.delivery.kick(unsettled, heads);
    return inserted;
  }
}
