import {
  AlertType,
  formatMicros,
  GatewayError,
  type AlertListMessage,
  type AlertSettingsSetMessage,
  type AlertSettingsView,
  type AlertView,
  type WebhookEndpointSetMessage,
  type WebhookEndpointView,
} from '@gateway/contracts';
import { callbackUrlProblem, type DestinationSettings } from '@gateway/webhooks';
import { Inject, Injectable } from '@nestjs/common';
import { TenantsService } from '../tenants/tenants.service';
import { AlertTrigger } from './alert-trigger';
import { AlertsRepository } from './alerts.repository';

/** Where endpoint URLs may point: the task webhooks' destination policy. */
export const ALERT_DESTINATIONS = Symbol('ALERT_DESTINATIONS');

/** A tenant's alert endpoint and thresholds, and the alerts it was sent. */
@Injectable()
export class AlertsService {
  constructor(
    @Inject(AlertsRepository) private readonly alerts: AlertsRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(AlertTrigger) private readonly trigger: AlertTrigger,
    @Inject(ALERT_DESTINATIONS) private readonly destinations: DestinationSettings,
  ) {}

  async setEndpoint(request: WebhookEndpointSetMessage): Promise<WebhookEndpointView> {
    const tenant = await this.tenants.requireBySlug(request.tenant);
    const problem = callbackUrlProblem(request.url, this.destinations);
    if (problem) throw GatewayError.invalid(`the endpoint URL is refused: ${problem}`, 'url');
    const events = [...new Set(request.events)];
    const saved = await this.alerts.saveEndpoint(tenant.id, request.url, events);
    return { tenant: tenant.slug, url: saved.url, events: saved.events, updatedAt: saved.updatedAt.toISOString() };
  }

  async showEndpoint(slug: string): Promise<WebhookEndpointView | null> {
    const tenant = await this.tenants.requireBySlug(slug);
    const endpoint = await this.alerts.endpoint(tenant.id);
    return endpoint && { tenant: tenant.slug, url: endpoint.url, events: endpoint.events, updatedAt: endpoint.updatedAt.toISOString() };
  }

  async setSettings(message: AlertSettingsSetMessage): Promise<AlertSettingsView> {
    const tenant = await this.tenants.requireBySlug(message.tenant);
    const balanceBelowMicros =
      message.balanceBelowMicros === undefined ? undefined : message.balanceBelowMicros === null ? null : BigInt(message.balanceBelowMicros);
    const saved = await this.alerts.saveSettings(tenant.id, { balanceBelowMicros, quotaBelow: message.quotaBelow });
    // A new threshold is judged against the balance now, not at the next request.
    if (balanceBelowMicros !== undefined) this.trigger.noticeBalance(tenant.id);
    return settingsView(tenant.slug, saved);
  }

  async showSettings(slug: string): Promise<AlertSettingsView> {
    const tenant = await this.tenants.requireBySlug(slug);
    return settingsView(tenant.slug, await this.alerts.settings(tenant.id));
  }

  async list(message: AlertListMessage): Promise<AlertView[]> {
    const tenant = await this.tenants.requireBySlug(message.tenant);
    const rows = await this.alerts.listAlerts(tenant.id, message.limit);
    const deliveries = new Map((await this.alerts.deliveriesOf(rows.map((r) => r.subjectId))).map((d) => [`${d.eventType} ${d.subjectId}`, d]));
    return rows.map((row) => {
      const delivery = deliveries.get(`${row.type} ${row.subjectId}`);
      return {
        id: row.id,
        type: AlertType.parse(row.type),
        subject: row.subjectId,
        createdAt: row.createdAt.toISOString(),
        url: row.url,
        delivery: delivery ? { id: delivery.id, status: delivery.status, attempts: delivery.attempts } : null,
        data: (row.data ?? {}) as Record<string, unknown>,
      };
    });
  }
}

function settingsView(slug: string, row: { balanceBelowMicros: bigint | null; quotaBelow: number | null } | null): AlertSettingsView {
  const below = row?.balanceBelowMicros ?? null;
  return {
    tenant: slug,
    balanceBelow: below === null ? null : formatMicros(below),
    balanceBelowMicros: below === null ? null : below.toString(),
    quotaBelow: row?.quotaBelow ?? null,
  };
}
