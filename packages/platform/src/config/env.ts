import { z } from 'zod';

/** Settings every process shares. Secrets have no defaults; addresses default to this machine. */
export const BaseEnv = z.object({
  /** One NATS server, or several of one cluster, comma-separated (the client moves to another when one fails). */
  NATS_URL: z
    .string()
    .default('nats://127.0.0.1:4222')
    .refine((text) => text.split(',').every((server) => server.trim() !== ''), 'one or more server addresses, comma-separated'),
  /** Copies JetStream keeps of each stream the gateway makes: 1 on one server, 3 on a three-node cluster. */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** Prepended to every subject: lets several deployments or test runs share one NATS server. */
  NATS_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\.)*$/, 'tokens ending in "." (e.g. "run42.")')
    .default(''),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** JSON lines for collectors; `pretty` for a terminal. */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  /** The operational listener of a service (/healthz, /readyz, /metrics); unset: none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Adds the tenant as a label of the token and cost series: one series per tenant and model. */
  METRICS_TENANT_LABEL: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** How long a SIGTERM waits for in-flight requests and open streams before the process exits. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().positive().default(25),
  /** Traces go to this OTLP/HTTP collector (e.g. http://otel-collector:4318); unset: tracing is off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
});
export type BaseEnv = z.infer<typeof BaseEnv>;

export class EnvError extends Error {}

/** Parses the environment with `schema`; a bad value stops start-up with one line naming the variable. */
export function loadEnv<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? 'environment');
  throw new EnvError(`Invalid environment variable ${name}: ${issue.message}`);
}

/** Same as loadEnv, but prints the error and exits: for process entry points. */
export function loadEnvOrExit<S extends z.ZodObject>(schema: S): z.infer<S> {
  try {
    return loadEnv(schema);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
