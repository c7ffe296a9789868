import { vertexClaudeUrl, vertexGeminiUrl, vertexHost, vertexLocationUrl, vertexModelUrl } from './vertex-urls';

describe('Vertex URLs', () => {
  it('picks the regional host, the global host without a prefix, and the multi-region hosts', () => {
    expect(vertexHost('us-central1')).toBe('https://us-central1-aiplatform.googleapis.com');
    expect(vertexHost('global')).toBe('https://aiplatform.googleapis.com');
    expect(vertexHost('eu')).toBe('https://aiplatform.eu.rep.googleapis.com');
  });

  it('builds Gemini generateContent and its SSE stream on the default host', () => {
    const address = { project: 'acme-prod', location: 'europe-west4', model: 'gemini-2.5-pro', stream: false };
    expect(vertexGeminiUrl(address)).toBe(
      'https://europe-west4-aiplatform.googleapis.com/v1/projects/acme-prod/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent',
    );
    expect(vertexGeminiUrl({ ...address, stream: true })).toBe(
      'https://europe-west4-aiplatform.googleapis.com/v1/projects/acme-prod/locations/europe-west4/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
  });

  it('builds Claude rawPredict and streamRawPredict, keeping the model version after @', () => {
    const address = { project: 'acme-prod', location: 'global', model: 'claude-sonnet-4@20250514', stream: false };
    expect(vertexClaudeUrl(address)).toBe(
      'https://aiplatform.googleapis.com/v1/projects/acme-prod/locations/global/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict',
    );
    expect(vertexClaudeUrl({ ...address, stream: true }, 'http://127.0.0.1:8090/vertex/')).toBe(
      'http://127.0.0.1:8090/vertex/v1/projects/acme-prod/locations/global/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict',
    );
  });

  it('encodes what would leave its path segment, and refuses dot segments', () => {
    const location = vertexLocationUrl({ project: 'p', location: 'us-east5' }, 'https://vertex.example');
    expect(vertexModelUrl(location, 'google', '../x/y;z', 'predict')).toBe(
      'https://vertex.example/v1/projects/p/locations/us-east5/publishers/google/models/..%2Fx%2Fy%3Bz:predict',
    );
    expect(() => vertexLocationUrl({ project: '..', location: 'us-east5' })).toThrow(RangeError);
    expect(() => vertexModelUrl(location, 'anthropic', '', 'rawPredict')).toThrow(RangeError);
  });
});
