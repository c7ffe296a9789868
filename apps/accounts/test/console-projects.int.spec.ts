import {
  BudgetView,
  ConsoleBudgetCleared,
  ConsoleInviteIssued,
  ConsoleProjectList,
  ConsoleUserList,
  GatewayError,
  KeyCreated,
  ProjectGrantView,
  ProjectView,
  SUBJECTS,
  TenantView,
} from '@gateway/contracts';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;
const P = S.console.projects;
const TENANT = 'roles-co';

describe('project roles and the console Projects page over NATS', () => {
  let h: AccountsHarness;
  let keyId: string;
  const ids = new Map<string, string>();
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error as GatewayError,
    );
  const page = (email: string) => h.bus.request(P.list, { tenant: TENANT, userId: ids.get(email) }, ConsoleProjectList);
  const setBudget = (email: string, target: { key?: string; project?: string }, amountMicros = '5000000') =>
    h.bus.request(P.setBudget, { tenant: TENANT, userId: ids.get(email), ...target, amountMicros, period: 'month', mode: 'hard', alertAt: [80] }, BudgetView);
  const grant = (email: string, role: string | null, project = 'web') =>
    h.bus.request(S.projects.grant, { tenant: TENANT, project, email, role }, ProjectGrantView);

  beforeAll(async () => {
    h = await startAccountsHarness('accounts_project_roles');
    await h.bus.request(S.tenants.create, { slug: TENANT }, TenantView);
    await h.bus.request(S.tenants.create, { slug: 'roles-other' }, TenantView);
    await h.bus.request(S.projects.create, { tenant: TENANT, name: 'web' }, ProjectView);
    keyId = (await h.bus.request(S.keys.create, { tenant: TENANT, name: 'backend', project: 'web' }, KeyCreated)).id;
    for (const [email, role] of [
      ['owner@roles.example', 'owner'],
      ['dev@roles.example', 'developer'],
      ['lead@roles.example', 'developer'],
      ['viewer@roles.example', 'viewer'],
    ] as const) {
      await h.bus.request(S.console.users.invite, { tenant: TENANT, email, role }, ConsoleInviteIssued);
    }
    await h.bus.request(S.console.users.invite, { tenant: 'roles-other', email: 'stranger@roles.example', role: 'owner' }, ConsoleInviteIssued);
    for (const tenant of [TENANT, 'roles-other']) {
      for (const user of (await h.bus.request(S.console.users.list, { tenant }, ConsoleUserList)).data) ids.set(user.email, user.id);
    }
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  });

  it('lets a tenant owner change budgets and refuses a developer with permission_denied', async () => {
    await expect(setBudget('owner@roles.example', { project: 'web' })).resolves.toMatchObject({ scope: 'project', project: 'web', amount: '5.000000' });
    const refused = await failure(setBudget('dev@roles.example', { key: keyId }));
    expect(refused).toMatchObject({ code: 'permission_denied' });
    expect(refused!.message).toContain('project "web" (developer)');
    expect(
      await failure(h.bus.request(P.clearBudget, { tenant: TENANT, userId: ids.get('viewer@roles.example'), project: 'web' }, ConsoleBudgetCleared)),
    ).toMatchObject({
      code: 'permission_denied',
    });
  });

  it('gives a developer owner rights on one project only, and takes them back', async () => {
    await expect(grant('lead@roles.example', 'owner')).resolves.toEqual({ tenant: TENANT, project: 'web', email: 'lead@roles.example', role: 'owner' });
    await expect(setBudget('lead@roles.example', { key: keyId }, '1000000')).resolves.toMatchObject({ scope: 'key', key: keyId, amount: '1.000000' });
    expect(await failure(setBudget('lead@roles.example', { project: 'default' }))).toMatchObject({ code: 'permission_denied' });
    const seen = (await page('lead@roles.example')).data;
    expect(seen.find((p) => p.name === 'web')).toMatchObject({ role: 'owner', rights: ['spend', 'budgets', 'budget-set'] });
    expect(seen.find((p) => p.name === 'default')).toMatchObject({ role: 'developer', rights: ['spend', 'budgets'] });

    await grant('lead@roles.example', null);
    expect(await failure(setBudget('lead@roles.example', { key: keyId }))).toMatchObject({ code: 'permission_denied' });
  });

  it('never lowers a tenant role: an owner given viewer on a project still changes its budget', async () => {
    await grant('owner@roles.example', 'viewer');
    await expect(setBudget('owner@roles.example', { project: 'web' }, '6000000')).resolves.toMatchObject({ amount: '6.000000' });
    await grant('owner@roles.example', null);
  });

  it('shows developers the budgets and viewers the spend alone', async () => {
    const developer = (await page('dev@roles.example')).data.find((p) => p.name === 'web')!;
    expect(developer.budget).toMatchObject({ amount: '6.000000', period: 'month', mode: 'hard', alertAt: [80] });
    expect(developer.keys).toEqual([expect.objectContaining({ id: keyId, name: 'backend', budget: expect.objectContaining({ amount: '1.000000' }) })]);

    await grant('viewer@roles.example', 'viewer');
    const viewer = (await page('viewer@roles.example')).data.find((p) => p.name === 'web')!;
    expect(viewer).toMatchObject({ role: 'viewer', rights: ['spend'], budget: null, spend: { period: 'month', used: '0.000000' } });
    expect(viewer.keys[0]).toMatchObject({ budget: null, spend: expect.objectContaining({ usedMicros: '0' }) });
    expect(viewer.members).toEqual([{ email: 'viewer@roles.example', role: 'viewer', tenantRole: 'viewer' }]);
  });

  it("keeps other tenants' people, projects and keys out", async () => {
    expect(await failure(grant('stranger@roles.example', 'owner'))).toMatchObject({ code: 'not_found', param: 'email' });
    expect(await failure(grant('dev@roles.example', 'owner', 'missing'))).toMatchObject({ code: 'not_found', param: 'project' });
    expect(await failure(setBudget('stranger@roles.example', { project: 'web' }))).toMatchObject({ code: 'permission_denied' });
    const otherKey = (await h.bus.request(S.keys.create, { tenant: 'roles-other', name: 'theirs' }, KeyCreated)).id;
    expect(await failure(setBudget('owner@roles.example', { key: otherKey }))).toMatchObject({ code: 'not_found', param: 'id' });
  });

  it('shows the operator every project with its budgets', async () => {
    const seen = await h.bus.request(P.ofTenant, { tenant: TENANT }, ConsoleProjectList);
    expect(seen.data.map((p) => [p.name, p.budget?.amount ?? null])).toEqual([
      ['default', null],
      ['web', '6.000000'],
    ]);
  });
});
