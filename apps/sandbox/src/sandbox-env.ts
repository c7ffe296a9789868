// The sandbox's configuration, validated at boot. Kept free of the Nest platform so the baseline stays lean.
import { z } from 'zod';

export const SandboxEnv = z.object({
  SANDBOX_HOST: z.string().min(1).default('127.0.0.1'),
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).default(0),
  SANDBOX_CHUNK_DELAY_MS: z.coerce.number().int().min(0).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
});
export type SandboxEnv = z.infer<typeof SandboxEnv>;

export function loadSandboxEnv(env: NodeJS.ProcessEnv = process.env): SandboxEnv {
  const result = SandboxEnv.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new Error(`Invalid environment variable ${String(issue.path[0] ?? 'environment')}: ${issue.message}`);
}
