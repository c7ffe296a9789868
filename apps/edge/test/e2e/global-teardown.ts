/** Stops every app the global setup started and drops the run's database. */
import { rm } from 'node:fs/promises';
import { E2E_ENV_FILE } from './support/e2e-env';
import { takeE2eRun } from './support/e2e-run';

export default async function globalTeardown(): Promise<void> {
  const run = takeE2eRun();
  if (!run) return;
  await run.stack.stop();
  await run.db.drop().catch((error: Error) => process.stderr.write(`dropping the e2e database failed: ${error.message}\n`));
  await rm(E2E_ENV_FILE, { force: true });
  await new Promise((resolve) => run.log.end(resolve));
  process.stderr.write(`gateway e2e: app logs kept in ${run.logFile}\n`);
}
