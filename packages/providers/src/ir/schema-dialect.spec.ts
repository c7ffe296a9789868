// JSON Schema ↔ Gemini's OpenAPI subset: what the subset holds round-trips; what it cannot hold is refused by name.
import { GatewayError } from '@gateway/contracts';
import { jsonSchemaOfOpenApi, openApiOfJsonSchema } from './schema-dialect';

describe('schema dialects', () => {
  it('reads the OpenAPI subset as JSON Schema: lowercase types, nullable as a null type, names and values kept', () => {
    const openApi = {
      type: 'OBJECT',
      properties: { type: { type: 'STRING', enum: ['FAST'], nullable: true }, tags: { type: 'ARRAY', items: { type: 'STRING' } } },
      required: ['type'],
    };
    expect(jsonSchemaOfOpenApi(openApi)).toEqual({
      type: 'object',
      properties: { type: { type: ['string', 'null'], enum: ['FAST'] }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['type'],
    });
  });

  it('writes JSON Schema in the subset: local $ref inlined, const as enum, nullable unions, dropped annotations', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { city: { type: 'string', minLength: 1 } },
      type: 'object',
      properties: { city: { $ref: '#/$defs/city' }, unit: { const: 'C' }, note: { type: ['string', 'null'] } },
      required: ['city'],
      additionalProperties: false,
    };
    const openApi = openApiOfJsonSchema(schema, 'response_format');
    expect(openApi).toEqual({
      type: 'OBJECT',
      properties: { city: { type: 'STRING', minLength: 1 }, unit: { enum: ['C'] }, note: { type: 'STRING', nullable: true } },
      required: ['city'],
    });
    expect(jsonSchemaOfOpenApi(openApi)).toEqual({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, unit: { enum: ['C'] }, note: { type: ['string', 'null'] } },
      required: ['city'],
    });
  });

  it.each([
    [{ type: 'object', patternProperties: { '^x': { type: 'string' } } }, "'patternProperties' at patternProperties"],
    [{ type: 'object', properties: { a: { not: { type: 'string' } } } }, "'not' at properties.a.not"],
    [{ type: ['string', 'number'] }, "'type' at type"],
    [{ $ref: 'https://example.com/schema.json' }, "'$ref' at the schema root"],
  ])('refuses %j naming the keyword and where it sits', (schema, named) => {
    let error: unknown;
    try {
      openApiOfJsonSchema(schema, 'generationConfig.responseJsonSchema');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).message).toContain(named);
    expect((error as GatewayError).param).toBe('generationConfig.responseJsonSchema');
  });
});
