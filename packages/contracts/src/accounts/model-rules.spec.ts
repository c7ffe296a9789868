import { modelRefusal, restrictsModels, ProjectModelRules } from './model-rules';

const project = (models: string[], denyModels: string[] = []) => ProjectModelRules.parse({ name: 'search', models, denyModels });

describe('the model rules of a key and its project', () => {
  it('admits every model without any list', () => {
    expect(modelRefusal({}, 'any')).toBeNull();
    expect(modelRefusal({ models: [], denyModels: [], project: project([]) }, 'any')).toBeNull();
    expect(restrictsModels({ models: [], project: project([]) })).toBe(false);
  });

  it("refuses a model outside the key's model list, naming the list", () => {
    expect(modelRefusal({ models: ['a', 'b-*'] }, 'c')).toBe("This API key may not use the model 'c': its model list is a, b-*.");
    expect(modelRefusal({ models: ['a', 'b-*'] }, 'b-1')).toBeNull();
  });

  it("refuses a model on the key's deny-list even when its model list admits it, naming the entry", () => {
    const rules = { models: ['sandbox-*'], denyModels: ['x', 'sandbox-claude*'] };
    expect(modelRefusal(rules, 'sandbox-claude-3')).toBe("The model 'sandbox-claude-3' is denied by this API key's deny-list (sandbox-claude*).");
    expect(modelRefusal(rules, 'sandbox-gpt')).toBeNull();
    expect(restrictsModels({ denyModels: ['x'] })).toBe(true);
  });

  it("refuses what the project's lists refuse, naming the project, after the key's own lists", () => {
    expect(modelRefusal({ project: project(['a', 'b']) }, 'c')).toBe(`The model 'c' is not allowed for this API key: its project "search" allows only a, b.`);
    expect(modelRefusal({ project: project([], ['c*']) }, 'cat')).toBe(`The model 'cat' is denied by the deny-list of this API key's project "search" (c*).`);
    expect(modelRefusal({ models: ['a'], project: project(['b']) }, 'c')).toContain('its model list is a');
    expect(modelRefusal({ models: ['a', 'b'], project: project(['b']) }, 'a')).toContain('project "search" allows only b');
    expect(modelRefusal({ models: ['b'], project: project(['b']) }, 'b')).toBeNull();
    expect(restrictsModels({ project: project([], ['c']) })).toBe(true);
  });
});
