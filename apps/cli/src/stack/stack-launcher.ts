/**
 * Launches the whole gateway as separate processes (sandbox, services, one or more edge replicas) with one
 * consistent environment, waits until every edge is ready, and stops it all again. Used by `gatewayctl up`,
 * the e2e global setup and the benches.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { CliError } from '../cli-error';
import { AppProcess, type LogSink } from './app-process';
import { freePorts } from './free-port';
import { checkInfrastructure } from './infra-check';
import { formatLogLine } from './log-line';
import {
  entryOf,
  isSplitApp,
  meteredProcesses,
  REPO_ROOT,
  ROLE_VARIABLES,
  sharedEnv,
  STACK_APPS,
  type EdgeEndpoint,
  type ResolvedStack,
  type StackApp,
  type StackOptions,
  workerName,
} from './stack-options';
import { Supervisor } from './supervisor';

export interface RunningStack extends ResolvedStack {
  /** The first edge replica. */
  baseUrl: string;
  adminUrl: string;
  processes: AppProcess[];
  /** Resolves when any app exits on its own (a crash after start-up); supervised, when an app crash-loops. */
  firstExit: Promise<AppProcess>;
  stop(): Promise<void>;
}

/** Every app line, readable, on stdout. */
export const consoleSink: LogSink = (app, line) => process.stdout.write(`[${app}] ${formatLogLine(line)}\n`);

async function resolveStack(options: StackOptions): Promise<{ resolved: ResolvedStack; sandboxPort: number }> {
  const host = options.host ?? '127.0.0.1';
  const replicas = options.edgePorts?.length ?? options.edgeReplicas ?? 1;
  const metered = meteredProcesses(options.workers ?? false);
  const picked = await freePorts(replicas * 2 + 1 + metered.length, host);
  const metricsUrls = Object.fromEntries(metered.map((name, i) => [name, `http://${host}:${picked[replicas * 2 + 1 + i]}`]));
  const ports = options.edgePorts ?? picked.slice(0, replicas);
  const adminPorts = options.adminPorts ?? picked.slice(replicas, replicas * 2);
  if (adminPorts.length !== ports.length) throw CliError.usage('one admin port per edge replica is needed');
  const sandboxPort = options.sandboxPort ?? picked[replicas * 2]!;
  const edges: EdgeEndpoint[] = ports.map((port, i) => ({
    name: i === 0 ? 'edge' : `edge-${i + 1}`,
    port,
    adminPort: adminPorts[i]!,
    baseUrl: `http://${host}:${port}`,
    adminUrl: `http://${host}:${adminPorts[i]}`,
  }));
  const base = {
    repoRoot: options.repoRoot ?? REPO_ROOT,
    host,
    edges,
    sandboxUrl: `http://${host}:${sandboxPort}`,
    natsUrl: options.natsUrl ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    natsPrefix: options.natsPrefix ?? process.env.NATS_PREFIX ?? '',
    databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gateway',
    redisUrl: options.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    adminToken: options.adminToken ?? randomBytes(24).toString('hex'),
    signedUrlSecret: options.signedUrlSecret ?? process.env.SIGNED_URL_SECRET ?? randomBytes(32).toString('hex'),
  };
  return { resolved: { ...base, metricsUrls, env: sharedEnv(options, { ...base, metricsUrls }, sandboxPort) }, sandboxPort };
}

function tcpOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function httpStatus(url: string): Promise<number | null> {
  try {
    const response = await request(url, { headersTimeout: 2000, bodyTimeout: 2000 });
    await response.body.dump();
    return response.statusCode;
  } catch {
    return null;
  }
}

/** Polls until `ready()` holds; fails at the deadline, or at once when an app has died. */
async function waitFor(what: string, ready: () => Promise<boolean>, processes: AppProcess[], deadline: number, signal?: AbortSignal): Promise<void> {
  for (;;) {
    if (signal?.aborted) throw CliError.failure('start-up interrupted');
    const dead = processes.find((p) => !p.running);
    if (dead) throw CliError.failure(`${dead.name} exited during start-up; its last output:\n${dead.lastLines()}`);
    if (await ready()) return;
    if (Date.now() > deadline) throw CliError.failure(`${what} was not ready in time`);
    await sleep(200);
  }
}

export async function launchStack(options: StackOptions = {}): Promise<RunningStack> {
  const { resolved, sandboxPort } = await resolveStack(options);
  const apps = options.apps ?? STACK_APPS;
  for (const app of apps) {
    if (!existsSync(entryOf(resolved.repoRoot, app))) throw CliError.failure(`${entryOf(resolved.repoRoot, app)} is missing; run npm run build first`);
  }
  if (options.checkInfra !== false) await checkInfrastructure(resolved);
  if (options.migrate !== false && apps.some((app) => app === 'accounts' || app === 'chat')) {
    const { migrateDatabase } = await import('@gateway/db');
    await migrateDatabase(resolved.databaseUrl).catch((error: Error) => {
      throw CliError.failure(`migrating ${resolved.databaseUrl} failed: ${error.message}`);
    });
  }
  const sink = options.sink ?? consoleSink;
  const processes: AppProcess[] = [];
  const spawned = new Map<AppProcess, () => AppProcess>();
  const start = (app: StackApp, name: string, appEnv: NodeJS.ProcessEnv) => {
    const env = { ...appEnv, ...options.appEnv?.[app] };
    const spawn = () => {
      const child = new AppProcess(name, entryOf(resolved.repoRoot, app), env, resolved.repoRoot, sink, options.nodeArgs?.[app]);
      spawned.set(child, spawn);
      return child;
    };
    processes.push(spawn());
  };
  const serviceEnv = (name: string): NodeJS.ProcessEnv => {
    const url = resolved.metricsUrls[name];
    return url ? { ...resolved.env, METRICS_HOST: resolved.host, METRICS_PORT: new URL(url).port } : resolved.env;
  };
  /** With `workers`, a split app's api process and its worker; `options.env` still wins (a spec pinning a role). */
  const startService = (app: StackApp) => {
    if (!options.workers || !isSplitApp(app)) return start(app, app, serviceEnv(app));
    const role = ROLE_VARIABLES[app];
    start(app, app, { ...serviceEnv(app), [role]: 'api', ...options.env });
    start(app, workerName(app), { ...serviceEnv(workerName(app)), [role]: 'worker', ...options.env });
  };
  let supervisor: Supervisor | undefined;
  // If this process ends without stop() (a crash, process.exit), its children must not outlive it.
  const killAll = () => processes.forEach((p) => p.killNow());
  process.once('exit', killAll);
  const stop = async () => {
    supervisor?.stop();
    await Promise.all(processes.map((p) => p.stop()));
    process.removeListener('exit', killAll);
    if (options.removeNamespaceOnStop && resolved.natsPrefix) {
      const { removeNamespace } = await import('@gateway/platform');
      await removeNamespace({ natsUrl: resolved.natsUrl, redisUrl: resolved.redisUrl, prefix: resolved.natsPrefix }).catch((error: Error) =>
        sink('stack', `could not remove namespace ${resolved.natsPrefix}: ${error.message}`),
      );
    }
  };
  try {
    for (const app of apps) {
      if (app !== 'edge') startService(app);
    }
    if (apps.includes('edge')) {
      for (const edge of resolved.edges) start('edge', edge.name, { ...resolved.env, PORT: String(edge.port), ADMIN_PORT: String(edge.adminPort) });
    }
    const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
    if (apps.includes('sandbox')) await waitFor('sandbox', () => tcpOpen(resolved.host, sandboxPort), processes, deadline, options.signal);
    if (apps.includes('edge')) {
      for (const edge of resolved.edges) {
        await waitFor(
          `${edge.name} ${edge.baseUrl}/readyz`,
          async () => (await httpStatus(`${edge.baseUrl}/readyz`)) === 200,
          processes,
          deadline,
          options.signal,
        );
        await waitFor(`${edge.name} admin API ${edge.adminUrl}`, () => tcpOpen(resolved.host, edge.adminPort), processes, deadline, options.signal);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  if (options.supervise) supervisor = new Supervisor(processes, (exited) => spawned.get(exited)!(), sink);
  const firstExit = supervisor ? supervisor.gaveUp : Promise.race(processes.map((p) => p.exited.then(() => p)));
  return { ...resolved, baseUrl: resolved.edges[0]!.baseUrl, adminUrl: resolved.edges[0]!.adminUrl, processes, firstExit, stop };
}
