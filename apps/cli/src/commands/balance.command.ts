/** `gatewayctl balance topup|show`: amounts are decimals, never floats (checked locally to 6 decimals). */
import { BalanceShowRequest, BalanceTopupRequest } from '@gateway/contracts';
import type { Command } from 'commander';
import { emit, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

export function registerBalance(program: Command, io: Io): void {
  const balance = program.command('balance').description('prepaid balance of a tenant');

  withJson(balance.command('topup'))
    .description('add to the prepaid balance')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--amount <decimal>', 'amount, e.g. 10.00 (at most 6 decimals)')
    .action(async (options: { tenant: string; amount: string }, command: Command) => {
      validate(BalanceTopupRequest, { tenant: options.tenant, amount: options.amount }, { tenant: '--tenant', amount: '--amount' });
      const view = await adminFrom(command).topup({ tenant: options.tenant, amount: options.amount });
      emit(io, wantsJson(command), view, () => `topped up ${options.amount}; balance of ${view.tenant}: ${view.balance}`);
    });

  withJson(balance.command('show'))
    .description('show the prepaid balance')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const { tenant } = validate(BalanceShowRequest, { tenant: options.tenant }, { tenant: '--tenant' });
      const view = await adminFrom(command).balance(tenant);
      emit(io, wantsJson(command), view, () => `balance of ${view.tenant}: ${view.balance}`);
    });
}
