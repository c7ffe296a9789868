#!/usr/bin/env node
// The installed `gatewayctl` command. npm links a workspace's bin at install time, before anything is
// built, so the link points here; the compiled CLI is built on first use when it is missing.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const cliRoot = join(__dirname, '..');
const entry = join(cliRoot, 'dist', 'main.js');

if (!existsSync(entry)) {
  const repoRoot = join(cliRoot, '..', '..');
  process.stderr.write('gatewayctl: building the CLI (first run after install)…\n');
  const built = spawnSync('npx', ['turbo', 'run', 'build', '--filter=@gateway/cli...', '--output-logs=errors-only'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  if (built.status !== 0 || !existsSync(entry)) {
    process.stderr.write('gatewayctl: the build failed; run `npm run build` and try again\n');
    process.exit(1);
  }
}
require(entry);
