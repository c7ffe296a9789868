/** `gatewayctl migrate`: creates the database if missing and applies pending migrations (compose's one-shot job). */
import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { emit, type Io } from '../output/output';
import { withJson } from './command-context';

export function registerMigrate(program: Command, io: Io): void {
  withJson(program.command('migrate'))
    .description('create the database if missing and apply pending migrations')
    .option('--database-url <url>', 'Postgres URL (env DATABASE_URL)')
    .action(async (options: { databaseUrl?: string; json?: boolean }) => {
      const url = options.databaseUrl ?? io.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gateway';
      if (!URL.canParse(url) || !url.startsWith('postgres')) throw CliError.usage(`invalid --database-url: "${url}" is not a postgresql:// URL`);
      const { migrateDatabase } = await import('@gateway/db');
      try {
        await migrateDatabase(url);
      } catch (error) {
        const detail = ((error as { stderr?: string }).stderr || (error as Error).message).trim().split('\n').pop();
        throw CliError.failure(`migrating ${new URL(url).host}${new URL(url).pathname} failed: ${detail}`);
      }
      emit(
        io,
        options.json === true,
        { migrated: true, database: new URL(url).pathname.slice(1) },
        () => `database ${new URL(url).pathname.slice(1)} is migrated`,
      );
    });
}
