import { GenerateContentRequest, parseOrThrow } from '@gateway/contracts';
import { vertexChannel, gencToolRequest } from '../../../test/fixtures/chat-fixtures';
import { fromGencRequest } from '../../families/genc/genc-request.decoder';
import { toGeminiBody } from '../gemini/gemini-request.transform';
import { toVertexGeminiRequest, vertexGeminiCall } from './vertex-gemini.transform';

describe('Gemini on Vertex', () => {
  it("sends the gemini vendor's body to the publisher model, with no API key header", () => {
    const ir = fromGencRequest(parseOrThrow(GenerateContentRequest, gencToolRequest()), 'any-chat', false);
    const request = toVertexGeminiRequest(ir, vertexChannel('global', 'gemini-2.5-flash'));
    expect(request.url).toBe(
      'https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(request.headers).toEqual({ 'content-type': 'application/json' });
    expect(JSON.parse(request.body as string)).toEqual(toGeminiBody(ir));
  });

  it('streams with alt=sse', () => {
    const request = vertexGeminiCall({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, vertexChannel('global', 'gemini-2.5-flash'), true);
    expect(request.url.endsWith('/models/gemini-2.5-flash:streamGenerateContent?alt=sse')).toBe(true);
    expect(request).toMatchObject({ stream: true, headers: { accept: 'text/event-stream' } });
  });
});
