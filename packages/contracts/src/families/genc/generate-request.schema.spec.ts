import { GatewayError, parseOrThrow } from '../../errors';
import { GenerateContentBody, GenerateContentRequest } from './generate-request.schema';

function failure(input: unknown): GatewayError {
  try {
    parseOrThrow(GenerateContentRequest, input);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected a failure');
}

const text = { role: 'user', parts: [{ text: 'hello' }] };

describe('GenerateContentRequest', () => {
  it('accepts parts of every kind with generation config and safety settings', () => {
    const body = parseOrThrow(GenerateContentRequest, {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'see' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.jpg' } },
          ],
        },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 18 } } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'w', parameters: { type: 'object' } }] }],
      generationConfig: { temperature: 0.2, topK: 3, maxOutputTokens: 50, stopSequences: ['END'], responseModalities: ['TEXT', 'IMAGE'] },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    });
    expect(body.contents).toHaveLength(3);
  });

  it('needs a text part somewhere in contents', () => {
    const error = failure({ contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }] }] });
    expect(error.param).toBe('contents');
    expect(error.message).toContain('text part');
  });

  it('refuses IMAGE without TEXT', () => {
    expect(failure({ contents: [text], generationConfig: { responseModalities: ['IMAGE'] } }).param).toBe('generationConfig.responseModalities');
  });

  it('refuses a part with two kinds or none', () => {
    expect(failure({ contents: [{ parts: [{ text: 'a', functionCall: { name: 'f' } }] }] }).param).toBe('contents[0].parts[0]');
    expect(failure({ contents: [{ parts: [{}] }] }).param).toBe('contents[0].parts[0]');
  });

  it.each([
    ['http://example.com/a.png', /http:\/\//],
    ['https://10.0.0.2/x.png', /private address \(10\.0\.0\.2\)/],
    ['https://localhost./a.png', /names this machine/],
    ['https://localhost.localdomain/', /\.localdomain/],
    ['https://100.100.100.200/latest/meta-data', /cloud metadata/],
    ['https://instance-data/', /single-label/],
    ['data:image/png;base64,iVBORw0KGgo=', /data URLs are not accepted/],
  ])('refuses the file URI %s at the field', (fileUri, reason) => {
    const error = failure({ contents: [{ parts: [{ text: 'a' }, { fileData: { mimeType: 'image/png', fileUri } }] }] });
    expect(error.param).toBe('contents[0].parts[1].fileData.fileUri');
    expect(error.message).toMatch(reason);
  });

  it('leaves URIs alone in the plain protocol body (upstream answers, the sandbox)', () => {
    const body = { contents: [{ parts: [{ text: 'a' }, { fileData: { mimeType: 'image/png', fileUri: 'gs://bucket/a.png' } }] }] };
    expect(GenerateContentBody.safeParse(body).success).toBe(true);
    expect(GenerateContentRequest.safeParse(body).success).toBe(false);
  });

  it('refuses an internal file URI in the system instruction too', () => {
    const error = failure({
      contents: [{ parts: [{ text: 'a' }] }],
      systemInstruction: { parts: [{ fileData: { mimeType: 'image/png', fileUri: 'https://[::1]/a.png' } }] },
    });
    expect(error.param).toBe('systemInstruction.parts[0].fileData.fileUri');
  });
});
