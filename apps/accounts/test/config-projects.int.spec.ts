import {
  ApplyResult,
  BudgetShowReply,
  GatewayError,
  KeyContext,
  KeyCreated,
  ProjectListReply,
  ProjectView,
  SUBJECTS,
  TenantView,
  type GatewayConfigInput,
} from '@gateway/contracts';
import { createHash } from 'node:crypto';
import { catalogConfig, startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;
type ProjectsInput = NonNullable<NonNullable<GatewayConfigInput['tenants']>[number]['projects']>;

describe('config apply: projects of a tenant, with model lists and budgets', () => {
  let h: AccountsHarness;
  let acmeId: string;
  let key: KeyCreated;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error as GatewayError,
    );
  const apply = (file: unknown) => h.bus.request(S.config.apply, file, ApplyResult);
  const withProjects = (projects: ProjectsInput | undefined) => catalogConfig({ tenants: [{ ...catalogConfig().tenants![0]!, projects }] });
  const projects = async () => (await h.bus.request(S.projects.list, { tenant: 'acme' }, ProjectListReply)).map((p) => [p.name, p.models, p.deny_models]);
  const budgetOf = async (project: string) => (await h.bus.request(S.budgets.show, { tenant: 'acme', project }, BudgetShowReply)).budget;
  const resolve = async () => (await h.bus.request(S.keys.resolve, { keyHash: createHash('sha256').update(key.key).digest('hex') }, KeyContext.nullable()))!;
  /** Clears the events seen so far and waits for the next one that names acme. */
  const acmeInvalidated = async (run: () => Promise<unknown>) => {
    h.events.length = 0;
    await run();
    return h.nextEvent((e) => e.tenantIds.includes(acmeId));
  };

  const SEARCH: ProjectsInput[number] = { name: 'search', models: ['sandbox-*'], denyModels: ['sandbox-embed'], budget: { amount: '400.00', period: 'month' } };

  beforeAll(async () => {
    process.env.ACCOUNTS_SPEC_SANDBOX_KEY = 'sandbox-secret';
    h = await startAccountsHarness('config_projects');
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    delete process.env.ACCOUNTS_SPEC_SANDBOX_KEY;
  });

  it('creates listed projects with their lists and budget, then applying again changes nothing', async () => {
    const first = await apply(withProjects([SEARCH, { name: 'batch' }]));
    expect(first.changes).toEqual(expect.arrayContaining(['tenant acme: created', 'project acme/search: created', 'project acme/batch: created']));
    acmeId = (await h.bus.request(S.tenants.get, { slug: 'acme' }, TenantView)).id;
    await expect(projects()).resolves.toEqual([
      ['batch', [], []],
      ['default', [], []],
      ['search', ['sandbox-*'], ['sandbox-embed']],
    ]);
    await expect(budgetOf('search')).resolves.toMatchObject({ scope: 'project', amount: '400.000000', period: 'month', mode: 'hard', alertAt: [50, 80, 100] });
    await expect(budgetOf('batch')).resolves.toBeNull();

    const eventsBefore = h.events.length;
    await expect(apply(withProjects([SEARCH, { name: 'batch' }]))).resolves.toMatchObject({ created: 0, updated: 0, changes: [] });
    await new Promise((r) => setTimeout(r, 100));
    expect(h.events.length).toBe(eventsBefore);
  });

  it('changes a project’s lists and budget, which its keys carry, and drops the tenant’s cached keys', async () => {
    key = await h.bus.request(S.keys.create, { tenant: 'acme', name: 'ci', project: 'search' }, KeyCreated);
    expect((await resolve()).budgets).toEqual([expect.objectContaining({ scope: 'project', name: 'search', amountMicros: '400000000', mode: 'hard' })]);

    const changed: ProjectsInput[number] = { ...SEARCH, denyModels: [], budget: { amount: '500', period: 'week', mode: 'soft', alertAt: [90, 10] } };
    const event = await acmeInvalidated(async () => {
      const result = await apply(withProjects([changed]));
      expect(result.changes).toEqual(['project acme/search: updated (denyModels, ~budget)']);
    });
    expect(event.tenantIds).toEqual([acmeId]);
    await expect(budgetOf('search')).resolves.toMatchObject({ amount: '500.000000', period: 'week', mode: 'soft', alertAt: [10, 90] });
    const context = await resolve();
    expect(context.project).toEqual({ name: 'search', models: ['sandbox-*'], denyModels: [] });
    expect(context.budgets).toEqual([expect.objectContaining({ scope: 'project', amountMicros: '500000000', period: 'week', mode: 'soft' })]);
  });

  it('removes the budget of a listed project without one, keeping unlisted projects and their keys', async () => {
    await h.bus.request(S.projects.create, { tenant: 'acme', name: 'legacy', models: ['sandbox-gpt'] }, ProjectView);
    const event = await acmeInvalidated(async () => {
      const result = await apply(withProjects([{ name: 'search', models: ['sandbox-*'] }]));
      expect(result.changes).toEqual(['project acme/search: updated (-budget)']);
    });
    expect(event.tenantIds).toEqual([acmeId]);
    await expect(budgetOf('search')).resolves.toBeNull();
    expect((await resolve()).budgets).toEqual([]);
    await expect(projects()).resolves.toEqual([
      ['batch', [], []],
      ['default', [], []],
      ['legacy', ['sandbox-gpt'], []],
      ['search', ['sandbox-*'], []],
    ]);
  });

  it('keeps every project of a tenant entry without projects', async () => {
    const before = await projects();
    await expect(apply(withProjects(undefined))).resolves.toMatchObject({ changes: [] });
    await expect(projects()).resolves.toEqual(before);
  });

  it('refuses a duplicate project or a bad budget naming its path, and writes nothing', async () => {
    const twice = await failure(apply(withProjects([{ name: 'fresh', budget: { amount: '1', period: 'day' } }, { name: 'fresh' }])));
    expect(twice).toMatchObject({ code: 'invalid_request', param: 'tenants[0].projects[1].name' });
    const badPeriod = await failure(apply(withProjects([{ name: 'fresh' }, { name: 'other', budget: { amount: '1', period: 'year' } }] as never)));
    expect(badPeriod).toMatchObject({ code: 'invalid_request', param: 'tenants[0].projects[1].budget.period' });
    expect((await projects()).map(([name]) => name)).not.toContain('fresh');
  });
});
