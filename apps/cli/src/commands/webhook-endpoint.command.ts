/** `gatewayctl webhooks endpoint set|show`: where a tenant receives its account alerts (budget.*, balance.*, quota.*). */
import { WebhookEndpointSetRequest, WebhookEndpointShowRequest, type WebhookEndpointView } from '@gateway/contracts';
import type { Command } from 'commander';
import { emit, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

function describe(endpoint: WebhookEndpointView): string {
  return `alert endpoint of tenant ${endpoint.tenant}: ${endpoint.url}\n  events ${endpoint.events.join(', ')}; updated ${endpoint.updatedAt}`;
}

function patternsOf(text: string | undefined): string[] | undefined {
  return text
    ?.split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export function registerWebhookEndpoint(webhooks: Command, io: Io): void {
  const endpoint = webhooks.command('endpoint').description("a tenant's endpoint for account alerts, signed with its webhook secret");

  withJson(endpoint.command('set'))
    .description('set the URL a tenant receives its alerts at (it passes the same policy as task callbacks)')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--url <url>', 'the HTTPS URL to send alerts to')
    .option('--events <patterns>', 'comma-separated patterns: budget.*, balance.*, quota.*, a type such as balance.low, or *', '*')
    .action(async (options: { tenant: string; url: string; events?: string }, command: Command) => {
      const body = validate(
        WebhookEndpointSetRequest,
        { tenant: options.tenant, url: options.url, events: patternsOf(options.events) },
        { tenant: '--tenant', url: '--url', events: '--events' },
      );
      const saved = await adminFrom(command).setWebhookEndpoint(body);
      emit(io, wantsJson(command), saved, () => describe(saved));
    });

  withJson(endpoint.command('show'))
    .description("show a tenant's alert endpoint")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const { tenant } = validate(WebhookEndpointShowRequest, { tenant: options.tenant }, { tenant: '--tenant' });
      const shown = await adminFrom(command).showWebhookEndpoint(tenant);
      emit(io, wantsJson(command), { endpoint: shown }, () =>
        shown ? describe(shown) : `tenant ${tenant} has no alert endpoint: its alerts are recorded only`,
      );
    });
}
