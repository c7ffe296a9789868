/** `gatewayctl cache set|purge`: a tenant's response cache settings (or one key's narrowing of them) and its entries. */
import { CacheSetRequest, type CacheSettings } from '@gateway/contracts';
import type { Command } from 'commander';
import { emit, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

interface SetOptions {
  tenant: string;
  key?: string;
  mode: string;
  ttl?: string;
  sampled?: boolean;
}

const describe = (settings: CacheSettings) => `${settings.mode}, ttl ${settings.ttlSeconds} s${settings.sampled ? ', sampled answers too' : ''}`;

export function registerCache(program: Command, io: Io): void {
  const cache = program.command('cache').description('the response cache: settings per tenant or key, and purging');

  withJson(cache.command('set'))
    .description("turn a tenant's response cache on or off, or narrow it for one key (--mode none drops the key's own)")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--key <id>', "one key of the tenant: narrows the tenant's settings, never widens them")
    .requiredOption('--mode <mode>', 'off | read_write | read_only (none: for a key, take the tenant’s again)')
    .option('--ttl <seconds>', 'how long an answer is kept')
    .option('--sampled', 'cache answers of requests with a temperature above 0 too')
    .action(async (options: SetOptions, command: Command) => {
      const body = validate(
        CacheSetRequest,
        {
          tenant: options.tenant,
          key: options.key,
          mode: options.mode === 'none' ? null : options.mode,
          ttlSeconds: options.ttl === undefined ? undefined : Number(options.ttl),
          sampled: options.sampled,
        },
        { tenant: '--tenant', key: '--key', mode: '--mode', ttlSeconds: '--ttl', sampled: '--sampled' },
      );
      const reply = await adminFrom(command).setCache(body);
      emit(io, wantsJson(command), reply, () =>
        [
          `response cache of tenant ${reply.tenant}: ${describe(reply.tenantSettings)}`,
          ...(reply.key
            ? [`  key ${reply.key}: ${reply.keySettings ? describe(reply.keySettings) : "the tenant's"}`, `  effective: ${describe(reply.effective)}`]
            : []),
        ].join('\n'),
      );
    });

  withJson(cache.command('purge'))
    .description('forget every cached answer of a tenant')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const reply = await adminFrom(command).purgeCache(options.tenant);
      emit(io, wantsJson(command), reply, () => `purged ${reply.purged} cached answer(s) of tenant ${reply.tenant}`);
    });
}
