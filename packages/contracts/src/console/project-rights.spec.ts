import { effectiveProjectRole, PROJECT_RIGHTS, projectRoleAllows } from './project-rights';

describe('rights on a project', () => {
  it.each([
    ['viewer', null, 'viewer'],
    ['viewer', 'owner', 'owner'],
    ['developer', 'viewer', 'developer'],
    ['developer', 'owner', 'owner'],
    ['owner', 'viewer', 'owner'],
    ['viewer', 'developer', 'developer'],
  ] as const)('a tenant %s with project role %s acts as %s', (tenantRole, projectRole, expected) => {
    expect(effectiveProjectRole(tenantRole, projectRole)).toBe(expected);
  });

  it('lets owners change budgets, developers see them and viewers see spend only', () => {
    expect(projectRoleAllows('owner', 'budget-set')).toBe(true);
    expect(projectRoleAllows('developer', 'budget-set')).toBe(false);
    expect(projectRoleAllows('developer', 'budgets')).toBe(true);
    expect(projectRoleAllows('viewer', 'budgets')).toBe(false);
    expect(PROJECT_RIGHTS.viewer).toEqual(['spend']);
  });
});
