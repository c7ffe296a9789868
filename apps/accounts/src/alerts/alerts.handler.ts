import {
  AlertListMessage,
  AlertSettingsSetMessage,
  AlertSettingsShowRequest,
  parseOrThrow,
  RPCS,
  WebhookEndpointSetRequest,
  WebhookEndpointShowRequest,
  type AlertSettingsView,
  type AlertView,
  type WebhookEndpointShowReply,
  type WebhookEndpointView,
} from '@gateway/contracts';
import { RpcHandler } from '@gateway/platform';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AlertsService } from './alerts.service';

@Controller()
export class AlertsHandler {
  constructor(@Inject(AlertsService) private readonly alerts: AlertsService) {}

  @RpcHandler(RPCS.accounts.alerts.endpointSet)
  setEndpoint(@Payload() payload: unknown): Promise<WebhookEndpointView> {
    return this.alerts.setEndpoint(parseOrThrow(WebhookEndpointSetRequest, payload));
  }

  @RpcHandler(RPCS.accounts.alerts.endpointShow)
  async showEndpoint(@Payload() payload: unknown): Promise<WebhookEndpointShowReply> {
    return { endpoint: await this.alerts.showEndpoint(parseOrThrow(WebhookEndpointShowRequest, payload).tenant) };
  }

  @RpcHandler(RPCS.accounts.alerts.settingsSet)
  setSettings(@Payload() payload: unknown): Promise<AlertSettingsView> {
    return this.alerts.setSettings(parseOrThrow(AlertSettingsSetMessage, payload));
  }

  @RpcHandler(RPCS.accounts.alerts.settingsShow)
  showSettings(@Payload() payload: unknown): Promise<AlertSettingsView> {
    return this.alerts.showSettings(parseOrThrow(AlertSettingsShowRequest, payload).tenant);
  }

  @RpcHandler(RPCS.accounts.alerts.list)
  list(@Payload() payload: unknown): Promise<AlertView[]> {
    return this.alerts.list(parseOrThrow(AlertListMessage, payload));
  }
}
