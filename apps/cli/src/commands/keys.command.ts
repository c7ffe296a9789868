/** `gatewayctl keys create|regenerate|revoke|list`: the plain key is printed only by create and regenerate. */
import { KeyCreateRequest, KeyIdRequest, KeyListRequest, type KeyCreated } from '@gateway/contracts';
import type { Command } from 'commander';
import { emit, table, type Io } from '../output/output';
import { adminFrom, commaList, validate, wantsJson, withJson } from './command-context';

const ID_FLAGS = { id: 'ID' };
const CREATE_FLAGS = {
  tenant: '--tenant',
  name: '--name',
  project: '--project',
  models: '--models',
  denyModels: '--deny-models',
  routes: '--routes',
  expiresAt: '--expires',
};

interface KeyCreateOptions {
  tenant: string;
  name?: string;
  project?: string;
  models?: string;
  denyModels?: string;
  routes?: string;
  expires?: string;
}

function shownOnce(key: KeyCreated, verb: string): string {
  return [
    `${verb} key ${key.id} for tenant ${key.tenant}, project ${key.project} (${key.kind})`,
    `  key:    ${key.key}`,
    `  masked: ${key.masked}`,
    'Store the key now: it is not shown again.',
  ].join('\n');
}

export function registerKeys(program: Command, io: Io): void {
  const keys = program.command('keys').description('create, regenerate, revoke and list API keys');

  withJson(keys.command('create'))
    .description(
      "create an API key for a tenant, in its project (default: the tenant's default project), optionally limited to some models, some routes and a time; prints {id, key, masked, kind, tenant, project}",
    )
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--name <name>', 'key name')
    .option('--project <name>', 'the project the key belongs to, for good (default: default)')
    .option('--models <ids>', 'the only models the key may use: ids or * patterns, comma-separated (default: every model its tenant sees)')
    .option('--deny-models <ids>', 'models the key may never use, even where --models admits them: ids or * patterns, comma-separated')
    .option('--routes <ids>', 'the only routes the key may call: route ids (oaic.embeddings), families (oaic) or * patterns, comma-separated (default: all)')
    .option('--expires <iso>', 'when the key stops working, ISO 8601 with a zone (default: never, or its subscription end)')
    .action(async (options: KeyCreateOptions, command: Command) => {
      const body = validate(
        KeyCreateRequest,
        {
          tenant: options.tenant,
          name: options.name,
          project: options.project,
          models: commaList(options.models),
          denyModels: commaList(options.denyModels),
          routes: commaList(options.routes),
          expiresAt: options.expires,
        },
        CREATE_FLAGS,
      );
      const key = await adminFrom(command).createKey(body);
      const { id, key: plain, masked, kind } = key;
      emit(io, wantsJson(command), { id, key: plain, masked, kind, tenant: key.tenant, project: key.project }, () => shownOnce(key, 'created'));
    });

  withJson(keys.command('regenerate'))
    .description('replace a key secret; the old key stops working at once')
    .argument('<id>', 'key id')
    .action(async (id: string, _options: unknown, command: Command) => {
      validate(KeyIdRequest, { id }, ID_FLAGS);
      const key = await adminFrom(command).regenerateKey(id);
      emit(io, wantsJson(command), key, () => shownOnce(key, 'regenerated'));
    });

  withJson(keys.command('revoke'))
    .description('revoke a key')
    .argument('<id>', 'key id')
    .action(async (id: string, _options: unknown, command: Command) => {
      validate(KeyIdRequest, { id }, ID_FLAGS);
      const key = await adminFrom(command).revokeKey(id);
      emit(io, wantsJson(command), key, () => `key ${key.id} (${key.masked}) of tenant ${key.tenant} is ${key.status}`);
    });

  withJson(keys.command('list'))
    .description("list a tenant's keys (masked)")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const { tenant } = validate(KeyListRequest, { tenant: options.tenant }, { tenant: '--tenant' });
      const list = await adminFrom(command).listKeys(tenant);
      emit(io, wantsJson(command), { data: list }, () =>
        list.length === 0
          ? `tenant ${tenant} has no keys`
          : table([
              ['ID', 'NAME', 'PROJECT', 'KIND', 'MASKED', 'STATUS', 'MODELS', 'DENIED', 'ROUTES', 'EXPIRES', 'CREATED'],
              ...list.map((k) => [
                k.id,
                k.name,
                k.project,
                k.kind,
                k.masked,
                k.status,
                k.models.join(',') || 'all',
                k.deny_models.join(',') || 'none',
                k.routes.join(',') || 'all',
                k.expires_at ?? 'never',
                k.created_at,
              ]),
            ]),
      );
    });
}
