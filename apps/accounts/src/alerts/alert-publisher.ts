import { alertMatches, type AlertType } from '@gateway/contracts';
import { gatewayMetrics } from '@gateway/platform';
import { WebhookOutbox, type WebhookEvent } from '@gateway/webhooks';
import { Inject, Injectable } from '@nestjs/common';
import { AlertsRepository } from './alerts.repository';

/** An alert an evaluation found due; it fires unless its (subject, type) was recorded before. */
export interface DueAlert {
  tenantId: string;
  type: AlertType;
  subjectId: string;
  data: Record<string, unknown>;
}

const keyOf = (alert: { type: string; subjectId: string }) => `${alert.type} ${alert.subjectId}`;

/**
 * Fires due alerts: hands each to the outbox when its tenant's endpoint takes its type, then records it.
 * The outbox first: a crash between the two leaves the alert unrecorded, so the next evaluation finds it
 * due again and the outbox, keeping one delivery per (subject, type), sends it once all the same.
 */
@Injectable()
export class AlertPublisher {
  constructor(
    @Inject(AlertsRepository) private readonly alerts: AlertsRepository,
    @Inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
  ) {}

  /** Returns how many alerts this call recorded (fired). */
  async fire(due: readonly DueAlert[]): Promise<number> {
    const unique = [...new Map(due.map((alert) => [keyOf(alert), alert])).values()];
    const recorded = await this.alerts.recorded(unique);
    const fresh = unique.filter((alert) => !recorded.has(keyOf(alert)));
    if (fresh.length === 0) return 0;
    const endpoints = new Map((await this.alerts.endpoints([...new Set(fresh.map((a) => a.tenantId))])).map((e) => [e.tenantId, e]));
    const timestamp = new Date().toISOString();
    const sent = fresh.map((alert) => {
      const endpoint = endpoints.get(alert.tenantId);
      return { alert, url: endpoint && alertMatches(endpoint.events, alert.type) ? endpoint.url : null };
    });
    const events: WebhookEvent[] = sent.flatMap(({ alert, url }) =>
      url === null
        ? []
        : [
            {
              tenantId: alert.tenantId,
              subjectId: alert.subjectId,
              eventType: alert.type,
              seq: 0,
              url,
              payload: { type: alert.type, timestamp, data: alert.data },
            },
          ],
    );
    await this.outbox.publish(events);
    const created = await this.alerts.record(sent.map(({ alert, url }) => ({ ...alert, url })));
    for (const row of created) gatewayMetrics.alertsSent.inc({ type: row.type });
    return created.length;
  }
}
