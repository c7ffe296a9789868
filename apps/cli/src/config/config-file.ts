/** Reads a `gatewayctl apply` file: YAML → env expansion → GatewayConfig validation, each failure one clear line. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GatewayConfig, issuePath, type GatewayConfigInput } from '@gateway/contracts';
import { parseDocument } from 'yaml';
import { CliError } from '../cli-error';
import { EnvExpansionError, expandEnvDeep } from './env-expansion';

/** Validates already-read YAML text; returns the expanded input object to send (the server parses it again). */
export function parseConfigText(text: string, source: string, env: NodeJS.ProcessEnv): GatewayConfigInput {
  const doc = parseDocument(text, { prettyErrors: true });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = yamlError.linePos?.[0];
    const where = line ? `line ${line.line}, column ${line.col}` : 'unknown position';
    throw CliError.usage(`${source}: invalid YAML at ${where}: ${yamlError.message.split('\n')[0]}`);
  }
  const raw: unknown = doc.toJS() ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw CliError.usage(`${source}: expected a mapping with providers, models, plans, tenants`);
  let expanded: unknown;
  try {
    expanded = expandEnvDeep(raw, env);
  } catch (error) {
    if (error instanceof EnvExpansionError) throw CliError.usage(`${source}: ${error.message}`);
    throw error;
  }
  const result = GatewayConfig.safeParse(expanded);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issuePath(issue.path) || '(top level)';
    throw CliError.usage(`${source}: ${where}: ${describeIssue(issue)}`);
  }
  return expanded as GatewayConfigInput;
}

export async function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): Promise<GatewayConfigInput> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw CliError.usage(`cannot read config file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return withCredentialFilesFrom(path.dirname(path.resolve(file)), parseConfigText(text, file, env));
}

/**
 * A provider's `settings.credentialsFile` written relative to the config file, made absolute: the processes
 * that read it run elsewhere. A path that is absolute already (a mounted Secret) is kept as written.
 */
export function withCredentialFilesFrom(dir: string, config: GatewayConfigInput): GatewayConfigInput {
  if (!config.providers) return config;
  const providers = config.providers.map((provider) => {
    const settings = provider.settings as Record<string, unknown> | null | undefined;
    const file = settings?.credentialsFile;
    if (typeof file !== 'string' || path.isAbsolute(file)) return provider;
    return { ...provider, settings: { ...settings, credentialsFile: path.resolve(dir, file) } };
  });
  return { ...config, providers };
}

function describeIssue(issue: { code: string; message: string; keys?: string[] }): string {
  if (issue.code === 'unrecognized_keys' && issue.keys) return `unknown field(s) ${issue.keys.join(', ')}`;
  return issue.message;
}
