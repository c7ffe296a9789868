/**
 * The local stack's own secrets (`gatewayctl up`, what `npm start` runs): the admin token and the key
 * that signs result links. A value set in the environment wins; otherwise each is generated once and
 * kept in a file of its own under `.data/` (gitignored, readable by the owner only), so it survives a
 * restart and `gatewayctl` finds the admin token without being told.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './stack-options';

export const ADMIN_TOKEN_FILE = 'admin-token';
export const SIGNED_URL_SECRET_FILE = 'signed-url-secret';

export interface LocalSecrets {
  adminToken: string;
  signedUrlSecret: string;
  /** Which of them were created by this call (first start). */
  created: string[];
}

async function kept(file: string): Promise<{ value: string; created: boolean }> {
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (existing.length >= 16) return { value: existing, created: false };
  const value = randomBytes(32).toString('hex');
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { value, created: true };
}

/** The environment's ADMIN_TOKEN and SIGNED_URL_SECRET, or the ones kept in `dataDir` (made on first use). */
export async function localSecrets(dataDir: string, env: NodeJS.ProcessEnv): Promise<LocalSecrets> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const created: string[] = [];
  const pick = async (name: string, file: string) => {
    const given = env[name];
    if (given) return given;
    const { value, created: isNew } = await kept(path.join(dataDir, file));
    if (isNew) created.push(path.join(dataDir, file));
    return value;
  };
  const adminToken = await pick('ADMIN_TOKEN', ADMIN_TOKEN_FILE);
  const signedUrlSecret = await pick('SIGNED_URL_SECRET', SIGNED_URL_SECRET_FILE);
  return { adminToken, signedUrlSecret, created };
}

/** The admin token `npm start` keeps for this checkout, when there is one (gatewayctl's default token). */
export function keptAdminToken(dataDir = path.join(REPO_ROOT, '.data')): string | undefined {
  const file = path.join(dataDir, ADMIN_TOKEN_FILE);
  if (!existsSync(file)) return undefined;
  const token = readFileSync(file, 'utf8').trim();
  return token.length > 0 ? token : undefined;
}
