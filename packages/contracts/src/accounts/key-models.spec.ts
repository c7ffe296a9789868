import { KeyModels, keyAllowsModel } from './key-models';

describe("a key's model list", () => {
  it('allows every model when empty or absent', () => {
    expect(keyAllowsModel(undefined, 'any')).toBe(true);
    expect(keyAllowsModel([], 'any')).toBe(true);
  });

  it('allows listed ids and * patterns, and nothing else', () => {
    const models = ['sandbox-gpt', 'sandbox-*-embedding', '*-mini', 'us.anthropic.*'];
    for (const allowed of ['sandbox-gpt', 'sandbox-azure-embedding', 'gpt-4o-mini', 'us.anthropic.claude-sonnet-4-20250514-v1:0']) {
      expect(keyAllowsModel(models, allowed)).toBe(true);
    }
    for (const refused of ['sandbox-gpt-2', 'sandbox-embedding', 'mini-gpt', 'usXanthropic.claude', 'eu.anthropic.claude']) {
      expect(keyAllowsModel(models, refused)).toBe(false);
    }
  });

  it('reads the dots and other punctuation of a pattern literally', () => {
    expect(keyAllowsModel(['a.b*'], 'aXb-1')).toBe(false);
    expect(keyAllowsModel(['a.b*'], 'a.b-1')).toBe(true);
  });

  it('refuses entries that are no model id, naming the entry', () => {
    const result = KeyModels.safeParse(['ok-model', 'not a model']);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([1]);
  });
});
