/** `gatewayctl alerts set|show|list`: a tenant's low-balance and quota thresholds, and the alerts it was sent. */
import { AlertListRequest, AlertSettingsSetRequest, AlertSettingsShowRequest, displayMoney, type AlertSettingsView } from '@gateway/contracts';
import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { emit, table, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

function describe(settings: AlertSettingsView): string {
  return [
    `alerts of tenant ${settings.tenant}`,
    `  balance.low: ${settings.balanceBelow === null ? 'off' : `below ${displayMoney(settings.balanceBelow)}`}`,
    `  quota.low:   ${settings.quotaBelow === null ? 'off' : `below ${settings.quotaBelow} % of a period's quota left`}`,
  ].join('\n');
}

/** `off` turns an alert off (null); absent leaves it as it is. */
function orOff<T>(text: string | undefined, parse: (text: string) => T): T | null | undefined {
  if (text === undefined) return undefined;
  return text === 'off' ? null : parse(text);
}

function percent(text: string): number {
  if (!/^\d+$/.test(text)) throw CliError.usage(`invalid --quota-below: "${text}" is not a whole percentage`);
  return Number(text);
}

export function registerAlerts(program: Command, io: Io): void {
  const alerts = program.command('alerts').description("a tenant's account alerts: low balance, low quota (budgets carry their own shares)");

  withJson(alerts.command('set'))
    .description('set when balance.low and quota.low fire; "off" turns one off, a flag left out keeps its value')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--balance-below <decimal|off>', 'balance.low fires once when the prepaid balance falls below this, e.g. 5.00')
    .option('--quota-below <percent|off>', "quota.low fires once a period when a plan's quota left falls below this share")
    .action(async (options: { tenant: string; balanceBelow?: string; quotaBelow?: string }, command: Command) => {
      const balanceBelow = orOff(options.balanceBelow, (text) => text);
      const quotaBelow = orOff(options.quotaBelow, percent);
      validate(
        AlertSettingsSetRequest,
        { tenant: options.tenant, balanceBelow, quotaBelow },
        { tenant: '--tenant', balanceBelow: '--balance-below', quotaBelow: '--quota-below' },
      );
      const saved = await adminFrom(command).setAlertSettings({ tenant: options.tenant, balanceBelow, quotaBelow });
      emit(io, wantsJson(command), saved, () => describe(saved));
    });

  withJson(alerts.command('show'))
    .description("show a tenant's alert thresholds")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const { tenant } = validate(AlertSettingsShowRequest, { tenant: options.tenant }, { tenant: '--tenant' });
      const settings = await adminFrom(command).showAlertSettings(tenant);
      emit(io, wantsJson(command), settings, () => describe(settings));
    });

  withJson(alerts.command('list'))
    .description('the alerts a tenant was sent (or, without an endpoint, recorded), newest first')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--limit <n>', 'how many', '50')
    .action(async (options: { tenant: string; limit: string }, command: Command) => {
      const query = validate(AlertListRequest, { tenant: options.tenant, limit: options.limit }, { tenant: '--tenant', limit: '--limit' });
      const list = await adminFrom(command).listAlerts(query);
      emit(io, wantsJson(command), { data: list }, () =>
        list.length === 0
          ? `tenant ${query.tenant} has no alerts`
          : table([
              ['AT', 'TYPE', 'SUBJECT', 'DELIVERY'],
              ...list.map((a) => [a.createdAt, a.type, a.subject, a.delivery ? `${a.delivery.status} (${a.delivery.id})` : a.url ? 'queued' : 'recorded only']),
            ]),
      );
    });
}
