import { GatewayError } from '@gateway/contracts';
import type { ChatIrRequest, IrPart } from './chat-ir.schema';
import { assertIrUrls } from './ir-urls';

function ir(parts: IrPart[]): ChatIrRequest {
  return {
    family: 'oaic',
    model: 'm',
    system: [],
    messages: [{ role: 'user', parts }],
    tools: [],
    toolChoice: null,
    maxTokens: null,
    temperature: null,
    topP: null,
    topK: null,
    presencePenalty: null,
    frequencyPenalty: null,
    stop: [],
    responseModalities: null,
    safetySettings: null,
    user: null,
    stream: false,
  };
}

const image = (url: string, param = 'messages[0].content[1].image_url.url'): IrPart => ({ type: 'image', mediaType: null, data: null, url, param });

describe('assertIrUrls', () => {
  it('passes public URLs and inline images', () => {
    expect(() => assertIrUrls(ir([{ type: 'text', text: 'see' }, image('https://example.com/a.png')]))).not.toThrow();
    expect(() =>
      assertIrUrls(ir([{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', url: null, param: 'messages[0].content[0].image_url.url' }])),
    ).not.toThrow();
  });

  it('refuses an internal URL at the field the client put it in', () => {
    let caught: unknown;
    try {
      assertIrUrls(ir([{ type: 'text', text: 'see' }, image('https://100.100.100.200/latest/meta-data')]));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect(caught).toMatchObject({ code: 'invalid_request', param: 'messages[0].content[1].image_url.url' });
    expect((caught as GatewayError).message).toMatch(/cloud metadata address \(100\.100\.100\.200\)/);
  });
});
