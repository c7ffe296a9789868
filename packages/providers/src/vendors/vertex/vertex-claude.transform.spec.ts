import { MessagesRequest, parseOrThrow } from '@gateway/contracts';
import { vertexChannel, msgcToolRequest, WEATHER_ARGS } from '../../../test/fixtures/chat-fixtures';
import { fromMsgcRequest } from '../../families/msgc/msgc-request.decoder';
import { fromVertexClaudeError, toVertexClaudeRequest, VERTEX_ANTHROPIC_VERSION, vertexClaudeCall } from './vertex-claude.transform';

describe('Claude on Vertex', () => {
  it('sends the Messages body without model, with Vertex anthropic_version, to rawPredict', () => {
    const ir = fromMsgcRequest(parseOrThrow(MessagesRequest, msgcToolRequest()));
    const request = toVertexClaudeRequest(ir, vertexChannel('us-east5', 'claude-sonnet-4@20250514'));
    expect(request.url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict',
    );
    expect(request.headers).toEqual({ 'content-type': 'application/json' });
    const body = JSON.parse(request.body as string) as Record<string, unknown>;
    expect(body).not.toHaveProperty('model');
    expect(body.anthropic_version).toBe(VERTEX_ANTHROPIC_VERSION);
    expect(body.max_tokens).toBe(100);
    expect(body.tools).toEqual([expect.objectContaining({ name: 'get_weather' })]);
    expect(body.messages).toContainEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: WEATHER_ARGS }] });
  });

  it('streams through streamRawPredict and passes a msgc body through with its fields, model and version replaced', () => {
    const ir = fromMsgcRequest(parseOrThrow(MessagesRequest, msgcToolRequest({ stream: true })));
    const streamed = toVertexClaudeRequest(ir, vertexChannel('us-east5', 'claude-sonnet-4@20250514'));
    expect(streamed.url.endsWith(':streamRawPredict')).toBe(true);
    expect(streamed.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(streamed.body as string)).toMatchObject({ stream: true, anthropic_version: VERTEX_ANTHROPIC_VERSION });

    const passed = vertexClaudeCall(
      { model: 'public-claude', anthropic_version: '2023-06-01', max_tokens: 5, messages: [], top_k: 3 },
      vertexChannel('us-east5', 'claude-sonnet-4@20250514'),
      false,
    );
    expect(JSON.parse(passed.body as string)).toEqual({ anthropic_version: VERTEX_ANTHROPIC_VERSION, max_tokens: 5, messages: [], top_k: 3 });
  });

  it("reads Claude's errors in Anthropic's shape and the platform's in Google's", () => {
    const claude = fromVertexClaudeError(400, JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large' } }));
    expect(claude).toMatchObject({ code: 'invalid_request', message: 'max_tokens: too large' });
    const quota = fromVertexClaudeError(
      429,
      JSON.stringify({ error: { code: 429, message: 'Quota exceeded for aiplatform.googleapis.com', status: 'RESOURCE_EXHAUSTED' } }),
    );
    expect(quota).toMatchObject({ code: 'rate_limited', message: 'Quota exceeded for aiplatform.googleapis.com' });
  });
});
