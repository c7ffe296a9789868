import { z } from 'zod';

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Settings of console sign-in, read by accounts at start. */
export const ConsoleAccountsEnv = z.object({
  /** How long a console session lasts from sign-in, in hours. */
  CONSOLE_SESSION_HOURS: z.coerce.number().positive().max(720).default(12),
  /** Sign-in attempts in a row on one email that lock it; each further one doubles the lock. */
  CONSOLE_LOCKOUT_THRESHOLD: z.coerce.number().int().min(1).max(100).default(5),
  /** The first lock's length; each wrong password after it doubles it, up to CONSOLE_LOCKOUT_MAX_SECONDS. */
  CONSOLE_LOCKOUT_BASE_SECONDS: z.coerce.number().int().positive().default(30),
  CONSOLE_LOCKOUT_MAX_SECONDS: z.coerce.number().int().positive().default(900),
  /** Sign-in attempts one client address may have failed (or in flight) within the window, over all emails. */
  CONSOLE_SIGN_IN_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(30),
  CONSOLE_SIGN_IN_ADDRESS_WINDOW_SECONDS: z.coerce.number().int().positive().max(86_400).default(900),
  /** Lets single sign-on talk to an OpenID provider over plain HTTP (a local provider in dev and tests only). */
  CONSOLE_OIDC_ALLOW_HTTP: flag.default(false),
});
export type ConsoleAccountsEnv = z.infer<typeof ConsoleAccountsEnv>;

export const CONSOLE_ACCOUNTS_ENV = Symbol('CONSOLE_ACCOUNTS_ENV');
