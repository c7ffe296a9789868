import { GatewayError, type CatalogChannel } from '@gateway/contracts';
import { channelsFor, servedAsMediaTask } from './oaic-codec';

function channel(id: string, protocol: CatalogChannel['protocol']): CatalogChannel {
  return {
    id,
    providerId: `p-${id}`,
    protocol,
    baseUrl: 'https://upstream.example',
    apiKey: null,
    upstreamModel: id,
    priority: 0,
    weight: 1,
    nativeBatch: false,
    assistants: false,
  };
}

describe('channelsFor', () => {
  const openai = channel('a', 'openai');
  const anthropic = channel('b', 'anthropic');
  const gemini = channel('c', 'gemini');

  it('leaves chat, completions and responses every channel: they cross protocols', () => {
    expect(channelsFor('chat', 'm', [anthropic, openai])).toEqual([anthropic, openai]);
    expect(channelsFor('completions', 'm', [anthropic, gemini])).toEqual([anthropic, gemini]);
    expect(channelsFor('responses', 'm', [gemini])).toEqual([gemini]);
  });

  it('keeps only OpenAI-compatible channels for the other operations', () => {
    expect(channelsFor('moderations', 'm', [anthropic, openai])).toEqual([openai]);
    expect(channelsFor('embeddings', 'm', [openai, gemini])).toEqual([openai]);
  });

  it('counts Azure OpenAI as OpenAI-compatible, for every operation and against a media task', () => {
    const azure = channel('z', 'azure-openai');
    expect(channelsFor('embeddings', 'm', [anthropic, azure, openai])).toEqual([azure, openai]);
    expect(channelsFor('speech', 'm', [azure])).toEqual([azure]);
    expect(servedAsMediaTask('images', [channel('k', 'kling'), azure])).toBe(false);
  });

  it('refuses the other operations for a model with no compatible channel, naming the route', () => {
    let thrown: unknown;
    try {
      channelsFor('embeddings', 'e', [anthropic, gemini]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ code: 'invalid_request', param: 'model' });
    expect((thrown as Error).message).toBe(
      "The model 'e' is served only by anthropic and gemini-protocol upstreams, and POST /oaic/v1/embeddings reaches OpenAI-compatible upstreams only.",
    );
    expect(() => channelsFor('transcriptions', 'w', [gemini])).toThrow(
      "The model 'w' is served only by gemini-protocol upstreams, and POST /oaic/v1/audio/transcriptions reaches OpenAI-compatible upstreams only.",
    );
  });

  it('hands image generation to the media service only for a native-media model with no OpenAI-compatible channel', () => {
    const kling = channel('k', 'kling');
    expect(servedAsMediaTask('images', [kling])).toBe(true);
    expect(servedAsMediaTask('images', [kling, openai])).toBe(false);
    expect(servedAsMediaTask('images', [gemini])).toBe(false);
    expect(servedAsMediaTask('embeddings', [kling])).toBe(false);
  });
});
