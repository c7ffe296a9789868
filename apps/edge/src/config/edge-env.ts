import { UrlPolicyAllowHosts } from '@gateway/contracts';
import { BaseEnv } from '@gateway/platform';
import { z } from 'zod';

const Port = z.coerce.number().int().min(0).max(65535);

/** The edge's settings, validated at boot. ADMIN_TOKEN has no default: unset means the admin listener is open on its loopback address. */
export const EdgeEnv = BaseEnv.extend({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: Port.default(8080),
  /** Internal hosts client URLs may point at after all (dev, test), comma-separated: exact names or *.suffix. */
  URL_POLICY_ALLOW_HOSTS: UrlPolicyAllowHosts,
  ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
  ADMIN_PORT: Port.default(8081),
  /** An empty value counts as unset, as launchers often export empty variables. */
  ADMIN_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  KEY_CACHE_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  /** How long an unknown key is remembered as unknown, so a flood of bad keys does not flood accounts. */
  NEGATIVE_KEY_CACHE_SECONDS: z.coerce.number().int().nonnegative().default(5),
});
export type EdgeEnv = z.infer<typeof EdgeEnv>;
