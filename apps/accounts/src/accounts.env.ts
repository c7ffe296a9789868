import { BaseEnv } from '@gateway/platform';
import { z } from 'zod';

/** The accounts service's settings: the shared NATS ones plus its database. */
export const AccountsEnv = BaseEnv.extend({
  DATABASE_URL: z.string().startsWith('postgres', 'a postgresql:// URL').default('postgresql://postgres@127.0.0.1:5432/gateway'),
});
export type AccountsEnv = z.infer<typeof AccountsEnv>;
