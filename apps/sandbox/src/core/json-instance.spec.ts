import { minimalInstance } from './json-instance';

describe('minimal instance of a schema', () => {
  it('fills the required properties, the first one with the prompt text', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 3 }, tags: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      required: ['name', 'age', 'tags'],
      additionalProperties: false,
    };
    expect(minimalInstance(schema, 'Ada')).toEqual({ name: 'Ada', age: 3, tags: ['sandbox'] });
  });

  it('reads Gemini capitalised types, enums, $ref and anyOf', () => {
    expect(minimalInstance({ type: 'OBJECT', properties: { mood: { type: 'STRING', enum: ['calm', 'loud'] } }, required: ['mood'] }, 'x')).toEqual({
      mood: 'calm',
    });
    const schema = {
      $defs: { city: { type: 'object', properties: { zip: { type: 'string', pattern: '^[0-9]+$' } }, required: ['zip'] } },
      $ref: '#/$defs/city',
    };
    expect(minimalInstance(schema, 'Paris')).toEqual({ zip: '' });
    expect(minimalInstance({ anyOf: [{ type: 'null' }, { type: 'number', minimum: 2 }] })).toBe(2);
  });
});
