import type { BudgetView } from '@gateway/contracts';
import { budgetsByTarget, toConsoleProject } from './console-project-view';
import type { ConsoleProjectRecord } from './console-projects.repository';

const KEY_ID = '6f1c1a52-3f6e-4c58-9d8f-1c5a3b2e4d10';

function budget(scope: 'key' | 'project', overrides: Partial<BudgetView> = {}): BudgetView {
  return {
    scope,
    tenant: 'acme',
    key: scope === 'key' ? KEY_ID : null,
    project: 'web',
    amount: '10.000000',
    amountMicros: '10000000',
    period: 'month',
    mode: 'hard',
    alertAt: [50, 80, 100],
    used: '2.500000',
    usedMicros: '2500000',
    left: '7.500000',
    leftMicros: '7500000',
    periodStart: '2026-11-01T00:00:00.000Z',
    resetsAt: '2026-12-01T00:00:00.000Z',
    ...overrides,
  };
}

const project = {
  id: 'p1',
  name: 'web',
  tenantId: 't1',
  createdAt: new Date(0),
  keys: [{ id: KEY_ID, name: 'backend', masked: 'sk-…abcd', status: 'active' }],
  members: [{ role: 'owner', consoleUser: { id: 'u1', email: 'dev@example.com', role: 'developer' } }],
} as unknown as ConsoleProjectRecord;

describe('a project as the console shows it', () => {
  const budgets = budgetsByTarget([budget('project'), budget('key', { amount: '1.000000', used: '0.200000', usedMicros: '200000' })]);

  it('shows owners and developers the budgets, with the rights of their role', () => {
    const owner = toConsoleProject(project, 'owner', budgets);
    expect(owner.rights).toEqual(['spend', 'budgets', 'budget-set']);
    expect(owner.budget?.amount).toBe('10.000000');
    expect(owner.keys[0]!.budget?.amount).toBe('1.000000');
    const developer = toConsoleProject(project, 'developer', budgets);
    expect(developer.rights).toEqual(['spend', 'budgets']);
    expect(developer.budget?.left).toBe('7.500000');
    expect(developer.members).toEqual([{ email: 'dev@example.com', role: 'owner', tenantRole: 'developer' }]);
  });

  it('shows viewers spend only: no amount, mode or thresholds', () => {
    const viewer = toConsoleProject(project, 'viewer', budgets);
    expect(viewer.budget).toBeNull();
    expect(viewer.keys[0]!.budget).toBeNull();
    expect(viewer.spend).toEqual({
      period: 'month',
      used: '2.500000',
      usedMicros: '2500000',
      periodStart: '2026-11-01T00:00:00.000Z',
      resetsAt: '2026-12-01T00:00:00.000Z',
    });
    expect(viewer.keys[0]!.spend?.used).toBe('0.200000');
    expect(JSON.stringify(viewer)).not.toContain('10.000000');
  });

  it('leaves spend and budget empty where there is no budget', () => {
    const bare = toConsoleProject(project, 'owner', new Map());
    expect([bare.spend, bare.budget, bare.keys[0]!.spend, bare.keys[0]!.budget]).toEqual([null, null, null, null]);
  });
});
