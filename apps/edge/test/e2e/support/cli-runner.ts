/** Runs the built gatewayctl binary against the e2e stack's admin API, the way an operator would. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '@gateway/cli';
import { e2eEnv } from './e2e-env';

export const CLI_BIN = path.join(REPO_ROOT, 'apps', 'cli', 'dist', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { adminToken?: string | null } = {}): Promise<CliResult> {
  const token = options.adminToken === undefined ? e2eEnv().GW_E2E_ADMIN_TOKEN : options.adminToken;
  const global = ['--admin-url', e2eEnv().GW_E2E_ADMIN_URL, ...(token ? ['--admin-token', token] : [])];
  const env = { ...process.env };
  delete env.ADMIN_TOKEN;
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BIN, ...global, ...args], { env, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
