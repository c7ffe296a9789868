/** The gatewayctl command tree and its error funnel: one line on stderr, exit 2 for bad input, 1 otherwise. */
import { Command, CommanderError, Option } from 'commander';
import { registerApply } from './commands/apply.command';
import { registerBalance } from './commands/balance.command';
import { registerK8s } from './commands/k8s.command';
import { registerKeys } from './commands/keys.command';
import { registerProjects } from './commands/projects.command';
import { registerBudgets } from './commands/budgets.command';
import { registerAlerts } from './commands/alerts.command';
import { registerMigrate } from './commands/migrate.command';
import { registerMoney } from './commands/money.command';
import { registerSubscriptions } from './commands/subscriptions.command';
import { registerTenants } from './commands/tenants.command';
import { registerUsage } from './commands/usage.command';
import { registerUp } from './commands/up.command';
import { registerUsers } from './commands/users.command';
import { registerWebhooks } from './commands/webhooks.command';
import { registerCache } from './commands/cache.command';
import { CliError, EXIT, oneLine, type ExitCode } from './cli-error';
import { processIo, type Io } from './output/output';

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';

export function createProgram(io: Io = processIo): Command {
  const program = new Command('gatewayctl')
    .description('operator tool of the model gateway: config, tenants, keys, subscriptions, balance, console users, local stack')
    .addOption(new Option('--admin-url <url>', 'admin API base URL').env('GATEWAY_ADMIN_URL').default(DEFAULT_ADMIN_URL))
    .addOption(new Option('--admin-token <token>', 'admin API bearer token (default: the one npm start keeps in .data/admin-token)').env('ADMIN_TOKEN'))
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: () => undefined, outputError: () => undefined })
    .showSuggestionAfterError(true);
  registerApply(program, io);
  registerTenants(program, io);
  registerKeys(program, io);
  registerProjects(program, io);
  registerBudgets(program, io);
  registerAlerts(program, io);
  registerSubscriptions(program, io);
  registerBalance(program, io);
  registerUsage(program, io);
  registerMoney(program, io);
  registerWebhooks(program, io);
  registerCache(program, io);
  registerUsers(program, io);
  registerMigrate(program, io);
  registerUp(program, io);
  registerK8s(program, io);
  return program;
}

function failure(error: unknown): { message: string; code: ExitCode } {
  if (error instanceof CliError) return { message: error.message, code: error.exitCode };
  if (error instanceof CommanderError) {
    if (error.code === 'commander.help') return { message: 'missing command; run gatewayctl --help', code: EXIT.usage };
    return { message: error.message.replace(/^error: /, ''), code: EXIT.usage };
  }
  return { message: (error as Error).message ?? String(error), code: EXIT.failure };
}

/** Runs one command line (`argv` without node and script) and returns the exit code. */
export async function runCli(argv: string[], io: Io = processIo): Promise<number> {
  const program = createProgram(io);
  // Commander reads env defaults from process.env; tests hand in their own environment.
  const saved = { url: process.env.GATEWAY_ADMIN_URL, token: process.env.ADMIN_TOKEN };
  if (io !== processIo) {
    setOrDelete('GATEWAY_ADMIN_URL', io.env.GATEWAY_ADMIN_URL);
    setOrDelete('ADMIN_TOKEN', io.env.ADMIN_TOKEN);
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')) return EXIT.ok;
    const { message, code } = failure(error);
    io.err(`error: ${oneLine(message)}\n`);
    return code;
  } finally {
    if (io !== processIo) {
      setOrDelete('GATEWAY_ADMIN_URL', saved.url);
      setOrDelete('ADMIN_TOKEN', saved.token);
    }
  }
}

function setOrDelete(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
