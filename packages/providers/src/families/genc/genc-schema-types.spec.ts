// genc function declarations use Gemini's capitalized schema types; the IR (and every other protocol) gets JSON Schema.
import { GenerateContentRequest, parseOrThrow } from '@gateway/contracts';
import { fromGencRequest } from './genc-request.decoder';

describe('genc function declaration schemas', () => {
  it('lowercases type names at every depth, leaving property names and enum values alone', () => {
    const body = parseOrThrow(GenerateContentRequest, {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'plan',
              parameters: {
                type: 'OBJECT',
                properties: {
                  type: { type: 'STRING', enum: ['FAST', 'SLOW'] },
                  stops: { type: 'ARRAY', items: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } },
                },
                required: ['type'],
              },
            },
          ],
        },
      ],
    });
    expect(fromGencRequest(body, 'm', false).tools[0]!.parameters).toEqual({
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['FAST', 'SLOW'] },
        stops: { type: 'array', items: { type: 'object', properties: { city: { type: 'string' } } } },
      },
      required: ['type'],
    });
  });
});
