import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { keptAdminToken, localSecrets } from './local-secrets';

describe('local stack secrets (npm start)', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'local-secrets-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('generates an admin token and a link secret on first start, owner-only, and keeps them for the next', async () => {
    const first = await localSecrets(dir, {});
    expect(first.adminToken).toMatch(/^[0-9a-f]{64}$/);
    expect(first.signedUrlSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(first.adminToken).not.toBe(first.signedUrlSecret);
    expect(first.created).toEqual([path.join(dir, 'admin-token'), path.join(dir, 'signed-url-secret')]);
    for (const file of first.created) expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(path.join(dir, 'admin-token'), 'utf8')).trim()).toBe(first.adminToken);

    const second = await localSecrets(dir, {});
    expect(second).toEqual({ adminToken: first.adminToken, signedUrlSecret: first.signedUrlSecret, created: [] });
    expect(keptAdminToken(dir)).toBe(first.adminToken);
  });

  it('lets the environment win and writes nothing for what it sets', async () => {
    const secrets = await localSecrets(dir, { ADMIN_TOKEN: 'from-env', SIGNED_URL_SECRET: 'a-link-secret-from-env' });
    expect(secrets).toEqual({ adminToken: 'from-env', signedUrlSecret: 'a-link-secret-from-env', created: [] });
    expect(keptAdminToken(dir)).toBeUndefined();
  });
});
