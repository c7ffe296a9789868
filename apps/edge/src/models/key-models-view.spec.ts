import { KeyContext, type ModelRecord } from '@gateway/contracts';
import { usableByKey } from './key-models-view';

function record(id: string): ModelRecord {
  return { id, object: 'model', type: 'model', display_name: id, created: 0, created_at: new Date(0).toISOString(), owned_by: 'gateway' };
}

function key(rules: Pick<KeyContext, 'models' | 'denyModels' | 'project'>): KeyContext {
  return {
    keyId: 'k',
    keyName: 'n',
    kind: 'payg',
    tenantId: 't',
    tenantSlug: 't',
    billing: 'payg',
    expiresAt: null,
    expiredBy: null,
    budgets: [],
    featureControls: {},
    ...rules,
  };
}

describe('the models a key lists', () => {
  const records = ['gpt-a', 'gpt-b', 'claude-a', 'embed-a'].map(record);

  it('is the tenant list itself when no list restricts the key', () => {
    expect(usableByKey(key({ models: [] }), records)).toBe(records);
  });

  it("keeps only what the key's and its project's lists admit", () => {
    const rules = key({ models: ['gpt-*', 'claude-a'], denyModels: ['gpt-b'], project: { name: 'p', models: [], denyModels: ['claude-*'] } });
    expect(usableByKey(rules, records).map((r) => r.id)).toEqual(['gpt-a']);
    const projectOnly = key({ models: [], project: { name: 'p', models: ['embed-*'], denyModels: [] } });
    expect(usableByKey(projectOnly, records).map((r) => r.id)).toEqual(['embed-a']);
  });
});
