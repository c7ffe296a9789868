import path from 'node:path';
import { z } from 'zod';

/** Where `npm run build` leaves the console's static files, relative to this file's build output. */
const BUILT_CONSOLE = path.resolve(__dirname, '../../../console/dist');

/** Settings of the console the edge serves at /console on both listeners. */
export const ConsoleEdgeEnv = z.object({
  /** The console's built files (index.html and assets/). */
  CONSOLE_DIST_DIR: z.string().min(1).default(BUILT_CONSOLE),
  /** How long an edge trusts a session it looked up; ends (sign-out, revocation) are broadcast and apply at once regardless. */
  CONSOLE_SESSION_CACHE_SECONDS: z.coerce.number().positive().default(30),
  /**
   * Origins besides the request's own that may call the console API, comma-separated
   * (e.g. https://console.example.com when a proxy serves the console under another name).
   */
  CONSOLE_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, '').toLowerCase())
        .filter((origin) => origin !== ''),
    )
    .pipe(z.array(z.url())),
  /** Wrong admin tokens one address may try per minute at the operator console's sign-in. */
  CONSOLE_OPERATOR_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(10),
  /** The origin tenants reach the gateway on, for invite links; unset: this edge's own address. */
  PUBLIC_BASE_URL: z.url().optional(),
});
export type ConsoleEdgeEnv = z.infer<typeof ConsoleEdgeEnv>;
