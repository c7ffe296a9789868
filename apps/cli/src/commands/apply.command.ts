/** `gatewayctl apply -f FILE`: the declarative catalog, tenants and plans, validated locally first. */
import type { Command } from 'commander';
import { loadConfigFile } from '../config/config-file';
import { emit, type Io } from '../output/output';
import { adminFrom, wantsJson, withJson } from './command-context';

export function registerApply(program: Command, io: Io): void {
  withJson(program.command('apply'))
    .description('apply a declarative YAML config (providers, models, plans, tenants); ${VAR} and ${VAR:-default} expand from the environment')
    .requiredOption('-f, --file <file>', 'YAML file to apply')
    .action(async (options: { file: string }, command: Command) => {
      const config = await loadConfigFile(options.file, io.env);
      const result = await adminFrom(command).apply(config);
      emit(io, wantsJson(command), result, () =>
        [
          `applied ${options.file}: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged`,
          ...result.changes.map((c) => `  ${c}`),
        ].join('\n'),
      );
    });
}
