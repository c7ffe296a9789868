/** `gatewayctl subscriptions set`: a past expiry stops the tenant's keys at once. */
import { SubscriptionSetRequest } from '@gateway/contracts';
import type { Command } from 'commander';
import { emit, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

export function registerSubscriptions(program: Command, io: Io): void {
  const subscriptions = program.command('subscriptions').description("set a tenant's subscription expiry");

  withJson(subscriptions.command('set'))
    .description('create or update the subscription expiry of a tenant')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--expires <iso>', 'expiry, ISO-8601 with offset (e.g. 2030-01-01T00:00:00Z)')
    .action(async (options: { tenant: string; expires: string }, command: Command) => {
      const body = validate(SubscriptionSetRequest, { tenant: options.tenant, expires: options.expires }, { tenant: '--tenant', expires: '--expires' });
      const view = await adminFrom(command).setSubscription(body);
      emit(
        io,
        wantsJson(command),
        view,
        () => `subscription of ${view.tenant} (${view.kind}${view.plan ? `, plan ${view.plan}` : ''}) expires ${view.expires ?? 'never'}`,
      );
    });
}
