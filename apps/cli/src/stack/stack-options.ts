/** What a stack launch may be told, and the environment every app of it shares. */
import path from 'node:path';
import type { LogSink } from './app-process';

/** Every app, in start order; the edge goes last so its readiness means every service is there. */
export const STACK_APPS = ['sandbox', 'accounts', 'chat', 'media', 'music', 'files', 'edge'] as const;
export type StackApp = (typeof STACK_APPS)[number];

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

export interface StackOptions {
  repoRoot?: string;
  /** Address the edge (public and admin) and the sandbox bind to. */
  host?: string;
  /** One public port per edge replica; when absent, `edgeReplicas` free ports are picked. */
  edgePorts?: number[];
  /** One admin port per edge replica, same length as the public ports. */
  adminPorts?: number[];
  edgeReplicas?: number;
  sandboxPort?: number;
  natsUrl?: string;
  natsPrefix?: string;
  databaseUrl?: string;
  redisUrl?: string;
  storageDir?: string;
  /** The admin API's token; a random one when absent (the admin API is never open). */
  adminToken?: string;
  /** The key that signs result links; SIGNED_URL_SECRET or a random one when absent (there is no default). */
  signedUrlSecret?: string;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Extra variables for every app; they win over everything else. */
  env?: Record<string, string>;
  /** Extra variables for one app only (a profiler flag, say); they win over `env`. */
  appEnv?: Partial<Record<StackApp, Record<string, string>>>;
  /** Node flags for one app only (`--cpu-prof`, which NODE_OPTIONS may not carry). */
  nodeArgs?: Partial<Record<StackApp, string[]>>;
  /** A subset of apps to start (default: all of them). */
  apps?: readonly StackApp[];
  sink?: LogSink;
  readyTimeoutMs?: number;
  /** Check Postgres/Redis/NATS first (default true). */
  checkInfra?: boolean;
  /** Create the database if missing and apply migrations (default true). */
  migrate?: boolean;
  /** On stop, delete the JetStream streams and Redis keys of this run's own NATS prefix (tests, benches). */
  removeNamespaceOnStop?: boolean;
  /** Aborting it ends the wait for readiness (e.g. Ctrl-C during start-up). */
  signal?: AbortSignal;
  /** Restart an app that exits on its own, with backoff, until it crash-loops (`gatewayctl up`). */
  supervise?: boolean;
  /**
   * Run media, music and files as the deployments do: an `api` process and a `worker` process each
   * (`media-worker`, …); otherwise each is one process playing both roles.
   */
  workers?: boolean;
}

export interface EdgeEndpoint {
  name: string;
  baseUrl: string;
  adminUrl: string;
  port: number;
  adminPort: number;
}

export interface ResolvedStack {
  repoRoot: string;
  host: string;
  edges: EdgeEndpoint[];
  sandboxUrl: string;
  natsUrl: string;
  natsPrefix: string;
  databaseUrl: string;
  redisUrl: string;
  adminToken: string;
  signedUrlSecret: string;
  /** Each service's operational listener (/healthz, /readyz, /metrics), by app name; the edges serve theirs on their own port. */
  metricsUrls: Record<string, string>;
  /** The environment every app gets (each edge replica adds its own PORT and ADMIN_PORT, each service its METRICS_PORT). */
  env: NodeJS.ProcessEnv;
}

export function entryOf(repoRoot: string, app: StackApp): string {
  return path.join(repoRoot, 'apps', app, 'dist', 'main.js');
}

/** The services with a metrics listener of their own (the sandbox is the upstream, the edge serves its ops routes itself). */
export const METERED_APPS: readonly StackApp[] = ['accounts', 'chat', 'media', 'music', 'files'];

/** The services with an api and a worker role, and the variable that picks it. */
export const ROLE_VARIABLES = { media: 'MEDIA_ROLE', music: 'MUSIC_ROLE', files: 'FILES_ROLE' } as const satisfies Partial<Record<StackApp, string>>;
export type SplitApp = keyof typeof ROLE_VARIABLES;
export const workerName = (app: SplitApp) => `${app}-worker`;
export const isSplitApp = (app: StackApp): app is SplitApp => app in ROLE_VARIABLES;

/** Every process with a metrics listener: the metered apps, and each split app's worker when workers run apart. */
export function meteredProcesses(workers: boolean): string[] {
  return [...METERED_APPS, ...(workers ? (Object.keys(ROLE_VARIABLES) as SplitApp[]).map(workerName) : [])];
}

/** Every port the gateway itself listens on (public, admin, metrics): never a webhook destination. */
function listenerPorts(resolved: Pick<ResolvedStack, 'edges' | 'metricsUrls'>): string {
  const metrics = Object.values(resolved.metricsUrls).map((url) => Number(new URL(url).port));
  return [...resolved.edges.flatMap((edge) => [edge.port, edge.adminPort]), ...metrics].join(',');
}

export function sharedEnv(options: StackOptions, resolved: Omit<ResolvedStack, 'env'>, sandboxPort: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NATS_URL: resolved.natsUrl,
    NATS_PREFIX: resolved.natsPrefix,
    DATABASE_URL: resolved.databaseUrl,
    REDIS_URL: resolved.redisUrl,
    STORAGE_DIR: options.storageDir ?? process.env.STORAGE_DIR ?? path.join(resolved.repoRoot, '.data', 'objects'),
    LOG_LEVEL: options.logLevel ?? process.env.LOG_LEVEL ?? 'info',
    HOST: resolved.host,
    ADMIN_HOST: resolved.host,
    SANDBOX_HOST: resolved.host,
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_URL: resolved.sandboxUrl,
    // Where upstreams call back (music) and what result links are built on: the first edge replica.
    PUBLIC_BASE_URL: resolved.edges[0]?.baseUrl ?? `http://${resolved.host}:8080`,
    // Two malloc arenas, not eight per core: under steady load glibc's per-thread arenas fragment and an
    // app's resident memory climbs by a third while its heap stays flat (measured by npm run soak).
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    GATEWAY_LISTENER_PORTS: listenerPorts(resolved),
    ...options.env,
  };
  env.ADMIN_TOKEN = resolved.adminToken;
  env.SIGNED_URL_SECRET = resolved.signedUrlSecret;
  return env;
}
