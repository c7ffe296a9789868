/** The running stack's coordinates: from process.env (set by the global setup), else from the file it wrote. */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

export const E2E_ENV_FILE = path.join(os.tmpdir(), 'gateway-e2e-env.json');

export const E2eEnv = z.object({
  GW_E2E_BASE_URL: z.url(),
  GW_E2E_BASE_URL_2: z.url(),
  GW_E2E_ADMIN_URL: z.url(),
  GW_E2E_ADMIN_TOKEN: z.string().min(1),
  GW_E2E_SANDBOX_URL: z.url(),
  GW_E2E_DATABASE_URL: z.string().min(1),
  GW_E2E_NATS_PREFIX: z.string(),
  GW_E2E_NATS_URL: z.string().min(1),
  /** The local object-storage folder every app of the stack writes to. */
  GW_E2E_STORAGE_DIR: z.string().min(1),
});
export type E2eEnv = z.infer<typeof E2eEnv>;

let cached: E2eEnv | undefined;

export function e2eEnv(): E2eEnv {
  if (cached) return cached;
  const fromProcess = E2eEnv.safeParse(process.env);
  if (fromProcess.success) return (cached = fromProcess.data);
  let text: string;
  try {
    text = readFileSync(E2E_ENV_FILE, 'utf8');
  } catch {
    throw new Error(`the e2e stack is not running: GW_E2E_* are unset and ${E2E_ENV_FILE} is missing (run through jest's e2e project)`);
  }
  return (cached = E2eEnv.parse(JSON.parse(text)));
}
