import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliError, EXIT } from '../cli-error';
import { freePort } from './free-port';
import { checkInfrastructure } from './infra-check';
import { launchStack } from './stack-launcher';

const REAL = {
  databaseUrl: 'postgresql://postgres@127.0.0.1:5432/gateway_does_not_need_to_exist',
  redisUrl: 'redis://127.0.0.1:6379',
  natsUrl: 'nats://127.0.0.1:4222',
};

describe('checkInfrastructure', () => {
  it('passes when PostgreSQL, Redis and NATS answer (the database itself may be missing)', async () => {
    await expect(checkInfrastructure(REAL)).resolves.toBeUndefined();
  });

  it.each([
    ['PostgreSQL', (port: number) => ({ ...REAL, databaseUrl: `postgresql://postgres@127.0.0.1:${port}/gateway` }), 'pg_ctlcluster'],
    ['Redis', (port: number) => ({ ...REAL, redisUrl: `redis://127.0.0.1:${port}` }), 'redis-server --daemonize yes'],
    ['NATS', (port: number) => ({ ...REAL, natsUrl: `nats://127.0.0.1:${port}` }), 'nats-server -js'],
  ])('names %s and how to start it when it does not answer', async (name, targets, command) => {
    const port = await freePort();
    const error = await checkInfrastructure(targets(port)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(EXIT.failure);
    expect((error as CliError).message).toMatch(new RegExp(`^${name} does not answer at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\); start it with: `));
    expect((error as CliError).message).toContain(command);
  });

  it('refuses a greeting that is not the expected service', async () => {
    // Postgres's port speaks neither RESP nor NATS: the probe must not mistake it for Redis.
    await expect(checkInfrastructure({ ...REAL, redisUrl: 'redis://127.0.0.1:5432' })).rejects.toThrow(/^Redis does not answer at 127\.0\.0\.1:5432/);
  });
});

describe('launchStack', () => {
  it('refuses to start when an app is not built, naming its entry', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'gw-empty-repo-'));
    try {
      await expect(launchStack({ repoRoot: root, apps: ['media'], checkInfra: false, migrate: false })).rejects.toThrow(
        `${path.join(root, 'apps', 'media', 'dist', 'main.js')} is missing; run npm run build first`,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('starts a subset of apps with one environment and stops them all', async () => {
    const lines: string[] = [];
    const stack = await launchStack({
      apps: ['media', 'files'],
      natsPrefix: `launch${Date.now()}.`,
      migrate: false,
      env: { NO_COLOR: '1' },
      sink: (app, line) => lines.push(`${app}: ${line}`),
    });
    try {
      expect(stack.processes.map((p) => p.name)).toEqual(['media', 'files']);
      expect(stack.processes.every((p) => p.running)).toBe(true);
      expect(stack.env.NATS_PREFIX).toBe(stack.natsPrefix);
      expect(stack.env.SANDBOX_URL).toBe(stack.sandboxUrl);
    } finally {
      await stack.stop();
    }
    expect(stack.processes.every((p) => !p.running)).toBe(true);
  });
});
