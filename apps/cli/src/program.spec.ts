import type { Command } from 'commander';
import { EXIT } from './cli-error';
import type { Io } from './output/output';
import { createProgram, DEFAULT_ADMIN_URL, runCli } from './program';

function captureIo(env: NodeJS.ProcessEnv = {}): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return { out: (t) => void (out += t), err: (t) => void (err += t), env, stdout: () => out, stderr: () => err };
}

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const io = captureIo(env);
  const code = await runCli(args, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe('gatewayctl argument handling', () => {
  it.each([
    [['keys', 'create'], "error: required option '--tenant <slug>' not specified"],
    [['keys', 'list', '--tenant', 'a', '--bogus'], "error: unknown option '--bogus'"],
    [['tenants', 'create', 'Not A Slug'], 'error: invalid SLUG: lowercase letters, digits, ".", "_" or "-"'],
    [['tenants', 'create', 'Not A Slug', '--json'], 'error: invalid SLUG: lowercase letters, digits, ".", "_" or "-"'],
    [['balance', 'topup', '--tenant', 'acme', '--amount', 'x', '--json'], 'error: invalid --amount: "x" is not an amount with at most 6 decimals'],
    [['subscriptions', 'set', '--tenant', 'acme', '--expires', 'x', '--json'], 'error: invalid --expires: expected a date and time, e.g. 2027-01-31T00:00:00Z'],
    [['tenants', 'create', 'acme', '--expires', 'tomorrow'], 'error: invalid --expires: expected a date and time, e.g. 2027-01-31T00:00:00Z'],
    [['subscriptions', 'set', '--tenant', 'acme', '--expires', '2030-13-01'], 'error: invalid --expires: expected a date and time, e.g. 2027-01-31T00:00:00Z'],
    [['balance', 'topup', '--tenant', 'acme', '--amount', '1.1234567'], 'error: invalid --amount: "1.1234567" is not an amount with at most 6 decimals'],
    [['balance', 'topup', '--tenant', 'acme', '--amount', '-5'], 'error: invalid --amount: "-5" is not an amount with at most 6 decimals'],
    [['keys', 'revoke', 'not-a-uuid'], 'error: invalid ID: Invalid UUID'],
    [['keys', 'regenerate'], "error: missing required argument 'id'"],
    [['apply'], "error: required option '-f, --file <file>' not specified"],
    [['apply', '-f', '/nonexistent/gateway.yaml'], 'error: cannot read config file /nonexistent/gateway.yaml: ENOENT'],
    [[], 'error: missing command; run gatewayctl --help'],
    [['keys'], 'error: missing command; run gatewayctl --help'],
    [['frobnicate'], "error: unknown command 'frobnicate'"],
  ])('%j → exit 2 with one line', async (args, line) => {
    const result = await run(args);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${line}\n`);
  });

  it('rejects a billing mode outside the choices', async () => {
    const result = await run(['tenants', 'create', 'acme', '--billing', 'free']);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(/^error: option '--billing <mode>' argument 'free' is invalid\. Allowed choices are payg, plan, custom\.\n$/);
  });

  it('prints help with exit 0', async () => {
    const result = await run(['keys', '--help']);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain('regenerate');
    expect(result.stderr).toBe('');
  });

  it('offers --json on every leaf command', () => {
    const program = createProgram(captureIo());
    const leavesOf = (command: Command): Command[] => (command.commands.length ? command.commands.flatMap(leavesOf) : [command]);
    const leaves = program.commands.flatMap(leavesOf);
    expect(leaves.length).toBeGreaterThanOrEqual(11);
    for (const leaf of leaves) expect(leaf.options.map((o) => o.long)).toContain('--json');
  });

  it('defaults the admin URL, a flag overriding it', () => {
    expect(createProgram(captureIo()).opts().adminUrl).toBe(DEFAULT_ADMIN_URL);
    const program = createProgram(captureIo());
    program.parseOptions(['--admin-url', 'http://flag.test:1']);
    expect(program.opts().adminUrl).toBe('http://flag.test:1');
  });
});
