import { BaseEnv } from '@gateway/platform';
import { WebhooksEnv } from '@gateway/webhooks';
import { z } from 'zod';

/** The accounts service's settings: the shared NATS ones, its database, and the webhook settings its alerts are published with. */
export const AccountsEnv = BaseEnv.extend({
  DATABASE_URL: z.string().startsWith('postgres', 'a postgresql:// URL').default('postgresql://postgres@127.0.0.1:5432/gateway'),
  /**
   * The CPU niceness the service gives itself at start (0 keeps the default; 1–19 lower its priority).
   * Most of its work is bookkeeping no request waits on (usage rows, ledger rows, ending holds); key
   * lookups are cached at the edge. On a machine it shares with the request path (edge, chat, NATS),
   * a lower priority keeps that work from delaying requests, and it catches up in larger batches.
   */
  ACCOUNTS_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * `idle` runs the service under SCHED_IDLE: it gets the CPU time the request path leaves, and a
   * request-path process that wakes on a CPU it occupies takes that CPU at once (which a nice level
   * alone does not give). Its work still keeps up: at full load on two cores the usage stream held
   * fewer than 200 records at any moment.
   * `normal` keeps the default policy, with ACCOUNTS_NICE. Where the idle policy cannot be set, the
   * nice level applies.
   */
  ACCOUNTS_CPU_POLICY: z.enum(['idle', 'normal']).default('idle'),
  /** The gateway's public origin: never an alert endpoint on this machine. */
  PUBLIC_BASE_URL: z.url().optional(),
}).extend(WebhooksEnv.shape);
export type AccountsEnv = z.infer<typeof AccountsEnv>;
