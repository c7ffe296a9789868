/** `gatewayctl webhooks secret rotate|endpoint set|show|deliveries|redeliver`: tenants' signing secrets, alert endpoints and deliveries. */
import { registerWebhookEndpoint } from './webhook-endpoint.command';
import { WebhookDeliveriesRequest, WebhookRedeliverRequest, WebhookSecretRotateRequest, type WebhookDeliveryView } from '@gateway/contracts';
import type { Command } from 'commander';
import { emit, table, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

function describe(delivery: WebhookDeliveryView): string {
  const last = delivery.history.at(-1);
  const lastText = last
    ? `last attempt ${last.attempt}: ${last.outcome}${last.responseStatus ? ` (${last.responseStatus})` : ''} in ${last.latencyMs} ms`
    : 'not attempted yet';
  return `${delivery.id}  ${delivery.eventType}  ${delivery.status}  ${lastText}${delivery.nextAttemptAt ? `, next at ${delivery.nextAttemptAt}` : ''}`;
}

export function registerWebhooks(program: Command, io: Io): void {
  const webhooks = program.command('webhooks').description('tenant webhook secrets and deliveries');
  const secret = webhooks.command('secret').description("a tenant's webhook signing secret");

  withJson(secret.command('rotate'))
    .description('create or rotate a tenant’s signing secret (whsec_…), printed once; the previous one keeps signing for its grace window')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--revoke-previous', 'end the previous secrets at once instead of after the grace window (a leaked secret)')
    .action(async (options: { tenant: string; revokePrevious?: boolean }, command: Command) => {
      const { tenant, revokePrevious } = validate(
        WebhookSecretRotateRequest,
        { tenant: options.tenant, revokePrevious: options.revokePrevious === true },
        { tenant: '--tenant', revokePrevious: '--revoke-previous' },
      );
      const rotated = await adminFrom(command).rotateWebhookSecret(tenant, revokePrevious);
      emit(io, wantsJson(command), rotated, () =>
        [
          `webhook signing secret of tenant ${rotated.tenant}`,
          `  secret: ${rotated.secret}`,
          rotated.previousValidUntil === null
            ? '  (the tenant had no secret before)'
            : revokePrevious
              ? `  the previous secrets were revoked at ${rotated.previousValidUntil}`
              : `  the previous secret keeps signing until ${rotated.previousValidUntil}`,
          'Store the secret now: it is not shown again.',
        ].join('\n'),
      );
    });

  registerWebhookEndpoint(webhooks, io);

  withJson(webhooks.command('deliveries'))
    .description('the webhook deliveries of a task, with every attempt')
    .requiredOption('--task <id>', 'task id')
    .action(async (options: { task: string }, command: Command) => {
      const { task } = validate(WebhookDeliveriesRequest, { task: options.task }, { task: '--task' });
      const list = await adminFrom(command).webhookDeliveries(task);
      emit(io, wantsJson(command), list, () =>
        list.data.length === 0
          ? `task ${task} has no webhook deliveries`
          : table([
              ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST', 'NEXT'],
              ...list.data.map((d) => {
                const last = d.history.at(-1);
                return [
                  d.id,
                  d.eventType,
                  d.status,
                  String(d.attempts),
                  last ? `${last.outcome}${last.responseStatus ? ` ${last.responseStatus}` : ''}` : '-',
                  d.nextAttemptAt ?? '-',
                ];
              }),
            ]),
      );
    });

  withJson(webhooks.command('redeliver'))
    .description('attempt a delivered or dead-lettered webhook again, under the same webhook-id')
    .argument('<id>', 'delivery id (msg_…)')
    .action(async (id: string, _options: unknown, command: Command) => {
      validate(WebhookRedeliverRequest, { id }, { id: '<id>' });
      const delivery = await adminFrom(command).redeliverWebhook(id);
      emit(io, wantsJson(command), delivery, () => `redelivering ${describe(delivery)}`);
    });
}
