import { GatewayConfig, GatewayError, parseOrThrow, ProjectConfig, type GatewayConfigInput } from '@gateway/contracts';
import { planApply } from './config-plan';
import type { ApplyPlan, CurrentState } from './config-plan.types';

const NOW = new Date('2026-01-01T00:00:00.000Z');

function emptyState(): CurrentState {
  return { providers: new Map(), models: new Map(), channelsByModel: new Map(), plans: new Map(), tenants: new Map() };
}

function fileWith(overrides: Partial<GatewayConfigInput> = {}): GatewayConfig {
  return GatewayConfig.parse({
    providers: [{ id: 'sandbox', protocol: 'openai', baseUrl: 'http://127.0.0.1:9000/v1', apiKeyEnv: 'SANDBOX_KEY' }],
    models: [
      { id: 'sandbox-gpt', displayName: 'Sandbox GPT', capability: 'chat', provider: 'sandbox', prices: { inputPerMTok: '0.50', outputPerMTok: '1.5' } },
      {
        id: 'secret-gpt',
        displayName: 'Secret',
        capability: 'chat',
        public: false,
        createdAt: '2025-06-01T00:00:00Z',
        channels: [{ provider: 'sandbox', upstreamModel: 'gpt-x', priority: 5 }],
      },
    ],
    plans: [{ name: 'starter', quota: { credit: '20' }, period: '30d' }],
    tenants: [{ slug: 'acme', billing: 'plan', plan: 'starter', models: ['secret-gpt'], featureControls: { mediaAuthorizedAssets: true } }, { slug: 'globex' }],
    ...overrides,
  });
}

/** What the repository would leave in the database after writing `plan` (channel ids made up). */
function afterWrite(state: CurrentState, plan: ApplyPlan): CurrentState {
  const next: CurrentState = {
    providers: new Map(state.providers),
    models: new Map(state.models),
    channelsByModel: new Map([...state.channelsByModel].map(([k, v]) => [k, [...v]])),
    plans: new Map(state.plans),
    tenants: new Map(
      [...state.tenants].map(([k, v]) => [k, { ...v, grants: [...v.grants], projects: new Map([...v.projects].map(([n, p]) => [n, { ...p }])) }]),
    ),
  };
  for (const p of [...plan.providers.create, ...plan.providers.update]) next.providers.set(p.id, p);
  for (const m of [...plan.models.create, ...plan.models.update]) next.models.set(m.id, m);
  for (const [modelId, channels] of next.channelsByModel) {
    next.channelsByModel.set(
      modelId,
      channels.filter((c) => !plan.channels.delete.includes(c.id)).map((c) => ({ ...c, ...plan.channels.update.find((u) => u.id === c.id) })),
    );
  }
  plan.channels.create.forEach((c, i) =>
    next.channelsByModel.set(c.modelId, [...(next.channelsByModel.get(c.modelId) ?? []), { ...c, id: `ch-${i}-${c.upstreamModel}` }]),
  );
  for (const p of [...plan.plans.create, ...plan.plans.update]) next.plans.set(p.name, p);
  for (const t of [...plan.tenants.create, ...plan.tenants.update]) {
    const current = next.tenants.get(t.slug);
    next.tenants.set(t.slug, { ...t, subscription: current?.subscription ?? null, grants: current?.grants ?? [], projects: current?.projects ?? new Map() });
  }
  for (const { slug, ...subscription } of plan.subscriptions) next.tenants.get(slug)!.subscription = subscription;
  for (const { slug, add, remove } of plan.grants) {
    const tenant = next.tenants.get(slug)!;
    tenant.grants = [...tenant.grants.filter((id) => !remove.includes(id)), ...add];
  }
  for (const p of [...plan.projects.create, ...plan.projects.update]) {
    const projects = next.tenants.get(p.slug)!.projects;
    projects.set(p.name, { ...p, budget: projects.get(p.name)?.budget ?? null });
  }
  for (const { slug, name, ...budget } of plan.projectBudgets.set) next.tenants.get(slug)!.projects.get(name)!.budget = budget;
  for (const { slug, name } of plan.projectBudgets.remove) next.tenants.get(slug)!.projects.get(name)!.budget = null;
  return next;
}

const projectsOf = (projects: unknown[]) => ProjectConfig.array().parse(projects);

function errorOf(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('planApply', () => {
  it('creates everything a new file lists, with prices in micros and a one-period plan subscription', () => {
    const plan = planApply(fileWith(), emptyState(), NOW);
    expect(plan.result).toMatchObject({ created: 6, updated: 0, unchanged: 0 });
    expect(plan.result.changes).toContain('model sandbox-gpt: created');
    const gpt = plan.models.create.find((m) => m.id === 'sandbox-gpt')!;
    expect(gpt).toMatchObject({ inputMicrosPerMTok: 500_000n, outputMicrosPerMTok: 1_500_000n, defaultMaxTokens: 4096, createdAt: NOW, isPublic: true });
    expect(plan.channels.create).toEqual([
      {
        modelId: 'sandbox-gpt',
        providerId: 'sandbox',
        upstreamModel: 'sandbox-gpt',
        priority: 0,
        weight: 1,
        nativeBatch: false,
        assistants: false,
        callbacks: false,
      },
      { modelId: 'secret-gpt', providerId: 'sandbox', upstreamModel: 'gpt-x', priority: 5, weight: 1, nativeBatch: false, assistants: false, callbacks: false },
    ]);
    expect(plan.plans.create).toEqual([{ name: 'starter', quotaMicros: 20_000_000n, quotaRequests: null, periodSeconds: 30 * 86400 }]);
    expect(plan.subscriptions).toEqual([{ slug: 'acme', kind: 'plan', planName: 'starter', expiresAt: new Date(NOW.getTime() + 30 * 86400_000) }]);
    expect(plan.grants).toEqual([{ slug: 'acme', add: ['secret-gpt'], remove: [] }]);
    expect(plan.touchedTenants).toEqual(['acme', 'globex']);
  });

  it('plans nothing when the same file meets the state it produced, even a day later', () => {
    const file = fileWith();
    const state = afterWrite(emptyState(), planApply(file, emptyState(), NOW));
    const again = planApply(file, state, new Date(NOW.getTime() + 86400_000));
    expect(again.result).toEqual({ created: 0, updated: 0, unchanged: 6, changes: [] });
    expect(again.channels).toEqual({ create: [], update: [], delete: [] });
    expect(again.subscriptions).toEqual([]);
    expect(again.touchedTenants).toEqual([]);
  });

  it('makes a model channel set exactly the listed one', () => {
    const state = afterWrite(emptyState(), planApply(fileWith(), emptyState(), NOW));
    state.channelsByModel.set('secret-gpt', [
      {
        id: 'keep',
        modelId: 'secret-gpt',
        providerId: 'sandbox',
        upstreamModel: 'gpt-x',
        priority: 1,
        weight: 1,
        nativeBatch: false,
        assistants: false,
        callbacks: false,
      },
      {
        id: 'stale',
        modelId: 'secret-gpt',
        providerId: 'sandbox',
        upstreamModel: 'gpt-old',
        priority: 0,
        weight: 1,
        nativeBatch: false,
        assistants: false,
        callbacks: false,
      },
    ]);
    const file = fileWith();
    file.models[1]!.channels.push({
      provider: 'sandbox',
      upstreamModel: 'gpt-y',
      priority: 0,
      weight: 3,
      nativeBatch: true,
      assistants: false,
      callbacks: false,
    });
    const plan = planApply(file, state, NOW);
    expect(plan.channels).toEqual({
      create: [
        {
          modelId: 'secret-gpt',
          providerId: 'sandbox',
          upstreamModel: 'gpt-y',
          priority: 0,
          weight: 3,
          nativeBatch: true,
          assistants: false,
          callbacks: false,
        },
      ],
      update: [{ id: 'keep', priority: 5, weight: 1, nativeBatch: false, assistants: false, callbacks: false }],
      delete: ['stale'],
    });
    expect(plan.result.changes).toEqual(['model secret-gpt: updated (~channel sandbox/gpt-x, +channel sandbox/gpt-y, -channel sandbox/gpt-old)']);
    expect(plan.result.updated).toBe(1);
  });

  it('updates a channel whose native-batch or assistants flag changed, and only then', () => {
    const state = afterWrite(emptyState(), planApply(fileWith(), emptyState(), NOW));
    const file = fileWith();
    file.models[1]!.channels[0] = { ...file.models[1]!.channels[0]!, assistants: true };
    const plan = planApply(file, state, NOW);
    expect(plan.channels.update).toEqual([expect.objectContaining({ priority: 5, weight: 1, nativeBatch: false, assistants: true })]);
    expect(plan.result.changes).toEqual(['model secret-gpt: updated (~channel sandbox/gpt-x)']);
  });

  it('keeps a model first publication time when the file gives none, and takes the file time when it does', () => {
    const state = afterWrite(emptyState(), planApply(fileWith(), emptyState(), NOW));
    const later = new Date('2027-01-01T00:00:00Z');
    const plan = planApply(fileWith(), state, later);
    expect(plan.models.update).toEqual([]);
    const moved = fileWith();
    moved.models[1]!.createdAt = '2025-07-01T00:00:00Z';
    expect(planApply(moved, state, later).models.update.map((m) => [m.id, m.createdAt])).toEqual([['secret-gpt', new Date('2025-07-01T00:00:00Z')]]);
  });

  it('sets grants, feature controls and expiry exactly and names what changed', () => {
    const state = afterWrite(emptyState(), planApply(fileWith(), emptyState(), NOW));
    const file = fileWith();
    file.tenants[0]!.models = ['sandbox-gpt'];
    file.tenants[0]!.featureControls = {};
    file.tenants[0]!.expires = '2030-01-01T00:00:00Z';
    const plan = planApply(file, state, NOW);
    expect(plan.grants).toEqual([{ slug: 'acme', add: ['sandbox-gpt'], remove: ['secret-gpt'] }]);
    expect(plan.result.changes).toEqual(['tenant acme: updated (featureControls, subscription, +model sandbox-gpt, -model secret-gpt)']);
    expect(plan.subscriptions[0]!.expiresAt).toEqual(new Date('2030-01-01T00:00:00Z'));
    expect(plan.touchedTenants).toEqual(['acme']);
  });

  it('accepts references to rows that exist only in the database', () => {
    const state = afterWrite(emptyState(), planApply(fileWith(), emptyState(), NOW));
    const file = fileWith({ providers: [], plans: [], models: [{ id: 'other', displayName: 'Other', capability: 'embedding', provider: 'sandbox' }] });
    file.tenants[0]!.models = ['secret-gpt', 'other'];
    expect(() => planApply(file, state, NOW)).not.toThrow();
  });

  it.each([
    ['an unknown channel provider', (f: GatewayConfig) => (f.models[1]!.channels[0]!.provider = 'nowhere'), 'models[1].channels[0].provider', 'nowhere'],
    ['an unknown plan', (f: GatewayConfig) => (f.tenants[0]!.plan = 'gold'), 'tenants[0].plan', 'gold'],
    ['an unknown granted model', (f: GatewayConfig) => (f.tenants[0]!.models = ['secret-gpt', 'ghost']), 'tenants[0].models[1]', 'ghost'],
    ['a plan tenant without a plan', (f: GatewayConfig) => delete f.tenants[0]!.plan, 'tenants[0].plan', 'plan'],
    ['a duplicate model', (f: GatewayConfig) => f.models.push({ ...f.models[0]! }), 'models[2].id', 'sandbox-gpt'],
    [
      'a duplicate project',
      (f: GatewayConfig) => (f.tenants[0]!.projects = projectsOf([{ name: 'search' }, { name: 'search', models: ['sandbox-gpt'] }])),
      'tenants[0].projects[1].name',
      'search',
    ],
    ['a duplicate channel', (f: GatewayConfig) => f.models[1]!.channels.push({ ...f.models[1]!.channels[0]! }), 'models[1].channels[1]', 'sandbox/gpt-x'],
  ])('rejects %s naming its path', (_label, breakIt, path, named) => {
    const file = fileWith();
    breakIt(file);
    const error = errorOf(() => planApply(file, emptyState(), NOW));
    expect(error).toMatchObject({ code: 'invalid_request', param: path });
    expect(error.message).toContain(path);
    expect(error.message).toContain(named);
  });

  describe('projects of a tenant', () => {
    const SEARCH = { name: 'search', models: ['sandbox-*'], denyModels: ['sandbox-claude'], budget: { amount: '400.00', period: 'month' } };
    const stored = () => {
      const file = fileWith();
      file.tenants[0]!.projects = projectsOf([SEARCH, { name: 'batch' }]);
      return afterWrite(emptyState(), planApply(file, emptyState(), NOW));
    };

    it('creates listed projects with their lists and a hard budget alerting at 50, 80 and 100 %, and then plans nothing', () => {
      const file = fileWith();
      file.tenants[0]!.projects = projectsOf([SEARCH, { name: 'batch' }]);
      const plan = planApply(file, emptyState(), NOW);
      expect(plan.projects.create).toEqual([
        { slug: 'acme', name: 'search', models: ['sandbox-*'], denyModels: ['sandbox-claude'] },
        { slug: 'acme', name: 'batch', models: [], denyModels: [] },
      ]);
      expect(plan.projectBudgets).toEqual({
        set: [{ slug: 'acme', name: 'search', amountMicros: 400_000_000n, period: 'month', mode: 'hard', alertAt: [50, 80, 100] }],
        remove: [],
      });
      expect(plan.result.changes).toEqual(expect.arrayContaining(['project acme/search: created', 'project acme/batch: created']));
      const again = planApply(file, afterWrite(emptyState(), plan), NOW);
      expect(again.result.changes).toEqual([]);
      expect(again.touchedTenants).toEqual([]);
    });

    it('sets lists and budget to the file’s, removes an absent budget, and touches the tenant', () => {
      const file = fileWith();
      file.tenants[0]!.projects = projectsOf([
        { ...SEARCH, denyModels: [], budget: { amount: '500', period: 'week', mode: 'soft', alertAt: [90, 10] } },
        { name: 'batch', budget: { amount: '1', period: 'day' } },
      ]);
      const plan = planApply(file, stored(), NOW);
      expect(plan.projects).toEqual({ create: [], update: [{ slug: 'acme', name: 'search', models: ['sandbox-*'], denyModels: [] }] });
      expect(plan.projectBudgets.set).toEqual([
        { slug: 'acme', name: 'search', amountMicros: 500_000_000n, period: 'week', mode: 'soft', alertAt: [10, 90] },
        { slug: 'acme', name: 'batch', amountMicros: 1_000_000n, period: 'day', mode: 'hard', alertAt: [50, 80, 100] },
      ]);
      expect(plan.result.changes).toEqual(['project acme/search: updated (denyModels, ~budget)', 'project acme/batch: updated (+budget)']);
      expect(plan.touchedTenants).toEqual(['acme']);

      const removed = fileWith();
      removed.tenants[0]!.projects = projectsOf([{ ...SEARCH, budget: undefined }]);
      const removal = planApply(removed, stored(), NOW);
      expect(removal.projectBudgets).toEqual({ set: [], remove: [{ slug: 'acme', name: 'search' }] });
      expect(removal.projects.update).toEqual([]);
      expect(removal.result.changes).toEqual(['project acme/search: updated (-budget)']);
      expect(removal.touchedTenants).toEqual(['acme']);
    });

    it('leaves unlisted projects, and every project of a tenant entry without projects, as they are', () => {
      const state = stored();
      const onlyBatch = fileWith();
      onlyBatch.tenants[0]!.projects = projectsOf([{ name: 'batch' }]);
      const withoutProjects = fileWith();
      for (const file of [onlyBatch, withoutProjects]) {
        const plan = planApply(file, state, NOW);
        expect(plan.projects).toEqual({ create: [], update: [] });
        expect(plan.projectBudgets).toEqual({ set: [], remove: [] });
        expect(plan.touchedTenants).toEqual([]);
      }
    });

    it('names the path of a bad project field in the file', () => {
      const tenants = [{ slug: 'acme', projects: [{ name: 'search' }, { name: 'batch', budget: { amount: '5', period: 'year' } }] }];
      const error = errorOf(() => parseOrThrow(GatewayConfig, { tenants }));
      expect(error).toMatchObject({ code: 'invalid_request', param: 'tenants[0].projects[1].budget.period' });
      expect(errorOf(() => parseOrThrow(GatewayConfig, { tenants: [{ slug: 'acme', projects: [{ name: 'Search!' }] }] }))).toMatchObject({
        param: 'tenants[0].projects[0].name',
      });
    });
  });
});
