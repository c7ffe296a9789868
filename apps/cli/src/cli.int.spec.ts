/** The built gatewayctl binary as an operator runs it: exit codes and the one stderr line. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './stack/free-port';

const BIN = path.resolve(__dirname, '..', 'dist', 'main.js');

// Each case starts a node process; on a loaded 2-core machine that alone can take seconds.
jest.setTimeout(30_000);

function gatewayctl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = { ...process.env, ...env };
  for (const name of ['GATEWAY_ADMIN_URL', 'ADMIN_TOKEN']) if (!(name in env)) delete clean[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: clean, timeout: 15_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe('gatewayctl binary', () => {
  let dir: string;
  let closedPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gatewayctl-'));
    closedPort = await freePort();
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    [['keys', 'create', '--name', 'x'], /^error: required option '--tenant <slug>' not specified\n$/],
    [['tenants', 'create', 'acme', '--colour', 'red'], /^error: unknown option '--colour'\n$/],
    [['tenants', 'create', 'acme', '--billing', 'gratis'], /^error: option '--billing <mode>' argument 'gratis' is invalid\./],
    [['balance', 'topup', '--tenant', 'acme', '--amount', 'ten'], /^error: invalid --amount: "ten" is not an amount/],
    [['subscriptions', 'set', '--tenant', 'acme', '--expires', 'soon'], /^error: invalid --expires: expected a date and time, e.g. 2027-01-31T00:00:00Z\n$/],
    [['keys', 'revoke', '42'], /^error: invalid ID: Invalid UUID\n$/],
    [[], /^error: missing command; run gatewayctl --help\n$/],
  ])('%j exits 2 with one line on stderr', async (args, line) => {
    const result = await gatewayctl(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(line);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it('refuses invalid YAML with exit 2, naming the file and line', async () => {
    const file = path.join(dir, 'broken.yaml');
    await writeFile(file, 'providers:\n  - id: a\n    protocol: [openai\n');
    const result = await gatewayctl(['apply', '-f', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: invalid YAML at line \\d+, column \\d+: `));
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('refuses a config that fails validation with exit 2, naming the field path', async () => {
    const file = path.join(dir, 'invalid.yaml');
    await writeFile(file, 'providers:\n  - { id: p, protocol: smoke-signals, baseUrl: "http://x" }\n');
    const result = await gatewayctl(['apply', '-f', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/: providers\[0\]\.protocol: /);
  });

  it('exits 1 naming the URL when the admin API does not answer (URL from GATEWAY_ADMIN_URL)', async () => {
    const url = `http://127.0.0.1:${closedPort}`;
    const result = await gatewayctl(['keys', 'list', '--tenant', 'acme', '--json'], { GATEWAY_ADMIN_URL: url });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: admin API unreachable at ${url} (ECONNREFUSED); is the gateway running (npm start) and --admin-url right?\n`);
  });

  it('prints help and exits 0', async () => {
    const result = await gatewayctl(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['apply', 'tenants', 'keys', 'subscriptions', 'balance', 'migrate', 'up']) expect(result.stdout).toContain(command);
  });
});
