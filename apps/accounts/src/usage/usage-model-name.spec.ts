import { modelGroupSql, UNKNOWN_MODEL_GROUP, USAGE_MODEL_MAX_LENGTH, usageModelName } from './usage-model-name';

describe('usageModelName', () => {
  it('keeps a catalog-shaped name as it is', () => {
    expect(usageModelName('sandbox-gpt')).toBe('sandbox-gpt');
  });

  it('bounds a long name', () => {
    expect(usageModelName('m'.repeat(10_000))).toHaveLength(USAGE_MODEL_MAX_LENGTH);
  });

  it('replaces control characters and lone surrogates', () => {
    expect(usageModelName('a\u0000b\u001bc\u007f\u0085d\ud800')).toBe('a\uFFFDb\uFFFDc\uFFFD\uFFFDd\uFFFD');
  });

  it('replaces the half of a surrogate pair a cut leaves', () => {
    const name = `${'x'.repeat(USAGE_MODEL_MAX_LENGTH - 1)}😀`;
    expect(usageModelName(name)).toBe(`${'x'.repeat(USAGE_MODEL_MAX_LENGTH - 1)}\uFFFD`);
  });

  it('groups a name no catalog entry has as unknown', () => {
    expect(modelGroupSql('u.model_id')).toContain(`'${UNKNOWN_MODEL_GROUP}'`);
    expect(modelGroupSql('u.model_id')).toContain('FROM models m WHERE m.id = u.model_id');
  });
});
