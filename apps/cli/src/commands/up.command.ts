/**
 * `gatewayctl up` (what `npm start` runs): starts Postgres/Redis/NATS where they are installed but not
 * running, takes ADMIN_TOKEN and SIGNED_URL_SECRET from the environment or `.data/` (made on first start),
 * migrates, starts every app under supervision (a crashed app is restarted with backoff),
 * applies the config, prints a demo key, and stops everything on Ctrl-C / SIGTERM or a crash loop. Access
 * lines are summed up every 10 s (`--access-log` prints each).
 */
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { AdminClient } from '../admin/admin-client';
import { CliError } from '../cli-error';
import { loadConfigFile } from '../config/config-file';
import { emit, type Io } from '../output/output';
import { ensureDemoTenant } from '../stack/demo-tenant';
import { startInfrastructure } from '../stack/infra-start';
import { ADMIN_TOKEN_FILE, localSecrets } from '../stack/local-secrets';
import { AccessSummary } from '../stack/access-summary';
import { consoleSink, launchStack, type RunningStack } from '../stack/stack-launcher';
import { REPO_ROOT } from '../stack/stack-options';
import { withJson } from './command-context';

const Port = z.coerce.number().int().min(1).max(65535);
const UpEnv = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: Port.default(8080),
  ADMIN_PORT: Port.default(8081),
  SANDBOX_PORT: Port.default(8090),
  ADMIN_TOKEN: z.string().min(1).optional(),
  SIGNED_URL_SECRET: z.string().min(16).optional(),
  GATEWAY_CONFIG: z.string().min(1).optional(),
});

function banner(stack: RunningStack, key: string, config: string, tokenFrom: string): string {
  const base = stack.baseUrl;
  return [
    '',
    'Gateway is up.',
    `  base URL   ${base}`,
    `  admin API  ${stack.adminUrl} (token: ${tokenFrom}; gatewayctl reads it)`,
    `  sandbox    ${stack.sandboxUrl}`,
    `  metrics    ${base}/metrics (edge); ${Object.entries(stack.metricsUrls)
      .map(([app, url]) => `${app} ${url}/metrics`)
      .join(', ')}`,
    `  config     ${config}`,
    `  demo key   ${key}`,
    '',
    'Try:',
    `  curl -s ${base}/oaic/v1/models -H "Authorization: Bearer ${key}"`,
    `  curl -s ${base}/oaic/v1/chat/completions -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\`,
    `    -d '{"model":"sandbox-gpt","messages":[{"role":"user","content":"Hello"}]}'`,
    '',
    'Ctrl-C stops everything.',
    '',
  ].join('\n');
}

export function registerUp(program: Command, io: Io): void {
  withJson(program.command('up'))
    .description('start the whole gateway locally (sandbox, services, edge) and print a demo key')
    .option('-c, --config <file>', 'config to apply (env GATEWAY_CONFIG; default infra/config/sandbox.yaml)')
    .option('--replicas <n>', 'edge replicas (ports PORT, PORT+2, ...; admin ADMIN_PORT, ADMIN_PORT+2, ...)', '1')
    .option('--access-log', "print every request's access line (default: a count every 10 s, and each 5xx)")
    .action(async (options: { config?: string; replicas: string; json?: boolean; accessLog?: boolean }) => {
      const env = UpEnv.safeParse(io.env);
      if (!env.success) throw CliError.usage(`invalid environment variable ${String(env.error.issues[0]!.path[0])}: ${env.error.issues[0]!.message}`);
      const replicas = Port.max(16).safeParse(options.replicas);
      if (!replicas.success) throw CliError.usage('invalid --replicas: a number from 1 to 16');
      const config = path.resolve(options.config ?? env.data.GATEWAY_CONFIG ?? path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'));
      const range = (start: number) => Array.from({ length: replicas.data }, (_, i) => start + i * 2);

      const abort = new AbortController();
      const summary = options.accessLog ? undefined : new AccessSummary(consoleSink);
      let stack: RunningStack | undefined;
      let stopping: Promise<void> | undefined;
      const shutdown = (code: number) => {
        abort.abort();
        summary?.stop();
        stopping ??= (stack?.stop() ?? Promise.resolve()).then(() => process.exit(code));
      };
      process.once('SIGINT', () => shutdown(0));
      process.once('SIGTERM', () => shutdown(0));

      const targets = {
        databaseUrl: io.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gateway',
        redisUrl: io.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        natsUrl: io.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      };
      const dataDir = path.join(REPO_ROOT, '.data');
      await startInfrastructure(targets, dataDir, (line) => io.err(`[stack] ${line}\n`));
      const secrets = await localSecrets(dataDir, io.env);
      for (const file of secrets.created) io.err(`[stack] generated ${file} (kept for the next start; gatewayctl reads the admin token from it)\n`);
      stack = await launchStack({
        supervise: true,
        workers: true,
        host: env.data.HOST,
        edgePorts: range(env.data.PORT),
        adminPorts: range(env.data.ADMIN_PORT),
        sandboxPort: env.data.SANDBOX_PORT,
        adminToken: secrets.adminToken,
        signedUrlSecret: secrets.signedUrlSecret,
        signal: abort.signal,
        sink: summary?.sink ?? consoleSink,
      });
      try {
        const admin = new AdminClient({ url: stack.adminUrl, token: secrets.adminToken });
        const result = await admin.apply(await loadConfigFile(config, stack.env));
        (options.json ? io.err : io.out)(`applied ${config}: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged\n`);
        const key = await ensureDemoTenant(admin);
        const summary = { baseUrl: stack.baseUrl, adminUrl: stack.adminUrl, sandboxUrl: stack.sandboxUrl, edges: stack.edges, demoKey: key.key, config };
        const tokenFrom = io.env.ADMIN_TOKEN ? 'ADMIN_TOKEN' : path.join('.data', ADMIN_TOKEN_FILE);
        emit(io, options.json === true, summary, () => banner(stack!, key.key, config, tokenFrom));
      } catch (error) {
        await stack.stop();
        throw error;
      }
      const crashed = await stack.firstExit;
      if (stopping) return;
      io.err(`error: ${crashed.name} keeps crashing; stopping the gateway\n`);
      shutdown(1);
    });
}
