/**
 * Starts the whole gateway once per e2e run: a fresh database, its own NATS prefix and admin token,
 * two edge replicas on free ports, the sandbox catalog applied. App output goes to a log file.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@gateway/db';
import { AdminClient, launchStack, loadConfigFile, REPO_ROOT } from '@gateway/cli';
import { E2E_ENV_FILE, type E2eEnv } from './support/e2e-env';
import { E2E_BATCH_CONCURRENCY } from './support/batch-fixtures';
import { E2E_FILES_MAX_BYTES, E2E_FILES_TENANT_QUOTA_BYTES } from './support/files-fixtures';
import { setE2eRun } from './support/e2e-run';
import { SPEC_STACK_ENV } from './support/stack-env';

export default async function globalSetup(): Promise<void> {
  const stamp = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const logFile = path.join(os.tmpdir(), `gateway-e2e-${stamp}.log`);
  const log = createWriteStream(logFile);
  process.stderr.write(`\ngateway e2e: app logs in ${logFile}\n`);
  const db = await createTestDatabase(undefined, 'e2e');
  const natsPrefix = `e2e${stamp}.`;
  const adminToken = randomBytes(16).toString('hex');
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-e2e-objects-'));
  let stack;
  try {
    stack = await launchStack({
      removeNamespaceOnStop: true,
      edgeReplicas: 2,
      natsPrefix,
      adminToken,
      databaseUrl: db.url,
      storageDir,
      migrate: false,
      // Every spec runs from one loopback address, and some present bad keys on purpose: the per-address
      // limit on failed authentications would refuse the next spec's fresh key (route-guard.int.spec.ts tests the limit).
      env: {
        ...SPEC_STACK_ENV,
        AUTH_FAILURES_PER_MINUTE: '0',
        FILES_MAX_BYTES: String(E2E_FILES_MAX_BYTES),
        FILES_TENANT_QUOTA_BYTES: String(E2E_FILES_TENANT_QUOTA_BYTES),
        BATCH_CONCURRENCY: String(E2E_BATCH_CONCURRENCY),
        BATCH_TENANT_CONCURRENCY: '32',
        NATIVE_BATCH_POLL_MS: '250',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        // The single sign-on spec's OpenID provider listens on plain HTTP on loopback.
        CONSOLE_OIDC_ALLOW_HTTP: 'true',
        WEBHOOK_RETRY_BASE_MS: '150',
        WEBHOOK_TIMEOUT_MS: '2000',
        WEBHOOK_LOCK_MS: '3000',
        MUSIC_POLL_INTERVAL_MS: '300',
        MEDIA_POLL_INTERVAL_MS: '200',
        MEDIA_SWEEP_INTERVAL_MS: '1000',
        // Tasks of channels with vendor callbacks are polled as a safety net this often (media-polls.e2e.spec.ts).
        MEDIA_CALLBACK_POLL_MS: '1500',
        // Runs nobody asks about again are billed within a second or two; one never ending is given up after 8 s.
        ASSISTANT_RUN_SWEEP_MS: '300',
        ASSISTANT_RUN_DEADLINE_MS: '8000',
      },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    const admin = new AdminClient({ url: stack.adminUrl, token: adminToken });
    const configFile = path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml');
    await admin.apply(await loadConfigFile(configFile, stack.env));
  } catch (error) {
    await stack?.stop();
    await db.drop().catch(() => undefined);
    log.end();
    throw new Error(`e2e stack failed to start (logs: ${logFile}): ${(error as Error).message}`);
  }
  const env: E2eEnv = {
    GW_E2E_BASE_URL: stack.edges[0]!.baseUrl,
    GW_E2E_BASE_URL_2: stack.edges[1]!.baseUrl,
    GW_E2E_ADMIN_URL: stack.adminUrl,
    GW_E2E_ADMIN_TOKEN: adminToken,
    GW_E2E_SANDBOX_URL: stack.sandboxUrl,
    GW_E2E_DATABASE_URL: db.url,
    GW_E2E_NATS_PREFIX: natsPrefix,
    GW_E2E_NATS_URL: stack.natsUrl,
    GW_E2E_STORAGE_DIR: storageDir,
  };
  Object.assign(process.env, env);
  await writeFile(E2E_ENV_FILE, JSON.stringify(env, null, 2));
  setE2eRun({ stack, db, log, logFile });
}
