import { driftField } from './drift';

describe('driftField', () => {
  it('renames the named top-level field and keeps the others in place', () => {
    expect(Object.entries(driftField({ id: 'a', content: [1], usage: 2 }, 'content'))).toEqual([
      ['id', 'a'],
      ['content_drifted', [1]],
      ['usage', 2],
    ]);
  });

  it('leaves the payload as it is without a field or when the field is absent', () => {
    const payload = { id: 'a' };
    expect(driftField(payload, null)).toBe(payload);
    expect(driftField(payload, 'content')).toBe(payload);
  });
});
