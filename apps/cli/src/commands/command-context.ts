/** Shared plumbing of the admin commands: the client from global options, local validation, --json. */
import { GatewayError, parseOrThrow } from '@gateway/contracts';
import type { Command } from 'commander';
import type { z } from 'zod';
import { AdminClient } from '../admin/admin-client';
import { CliError } from '../cli-error';
import { keptAdminToken } from '../stack/local-secrets';

export interface GlobalOptions {
  adminUrl: string;
  adminToken?: string;
  json?: boolean;
}

/** The client of the admin API: --admin-token or ADMIN_TOKEN, else the token `npm start` keeps in `.data/admin-token`. */
export function adminFrom(command: Command): AdminClient {
  const options = command.optsWithGlobals<GlobalOptions>();
  return new AdminClient({ url: options.adminUrl, token: options.adminToken || keptAdminToken() });
}

export function wantsJson(command: Command): boolean {
  return command.optsWithGlobals<GlobalOptions>().json === true;
}

/** Adds --json to a leaf command. */
export function withJson(command: Command): Command {
  return command.option('--json', 'print machine-readable JSON');
}

/** A comma-separated flag value as a list, each entry trimmed; undefined when the flag was not given. */
export function commaList(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((entry) => entry.trim());
}

/**
 * Validates input with the admin contract before sending it, so a typo fails here with the flag's name.
 * `flags` maps a schema field to how the operator wrote it (`expires` → `--expires`).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, flags: Record<string, string>): z.infer<S> {
  try {
    return parseOrThrow(schema, input);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    const flag = error.param ? (flags[error.param.split(/[.[]/)[0]!] ?? error.param) : null;
    const message = error.message.replace(/^Invalid value for '[^']*': /, '').replace(/^Missing required parameter: '[^']*'\.?/, 'missing');
    throw CliError.usage(flag ? `invalid ${flag}: ${message}` : message);
  }
}
