import { BaseEnv } from '@gateway/platform';
import { z } from 'zod';

/** The accounts service's settings: the shared NATS ones plus its database. */
export const AccountsEnv = BaseEnv.extend({
  DATABASE_URL: z.string().startsWith('postgres', 'a postgresql:// URL').default('postgresql://postgres@127.0.0.1:5432/gateway'),
  /**
   * The CPU niceness the service gives itself at start (0 keeps the default; 1–19 lower its priority).
   * Most of its work is bookkeeping no request waits on (usage rows, ledger rows, ending holds); key
   * lookups are cached at the edge. On a machine it shares with the request path (edge, chat, NATS),
   * a lower priority keeps that work from delaying requests, and it catches up in larger batches.
   */
  ACCOUNTS_NICE: z.coerce.number().int().min(0).max(19).default(10),
});
export type AccountsEnv = z.infer<typeof AccountsEnv>;
