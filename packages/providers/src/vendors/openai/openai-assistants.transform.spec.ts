import type { ChannelTarget } from '../../provider.types';
import { assistantsPath, toAssistantsUpstream, toRunRetrieveUpstream, withPublicModel } from './openai-assistants.transform';

const channel: ChannelTarget = {
  id: 'ch1',
  providerId: 'p1',
  protocol: 'openai',
  baseUrl: 'https://upstream.example/v1/',
  apiKey: 'sk-upstream',
  upstreamModel: 'gpt-upstream',
  priority: 0,
  weight: 1,
};

describe('assistants transforms', () => {
  it('maps each operation to its method and path', () => {
    expect(assistantsPath('assistants.list', {})).toBe('/assistants');
    expect(assistantsPath('assistants.delete', { assistantId: 'asst_1' })).toBe('/assistants/asst_1');
    expect(assistantsPath('threads.update', { threadId: 'thread_1' })).toBe('/threads/thread_1');
    expect(assistantsPath('threads.messages.list', { threadId: 'thread_1' })).toBe('/threads/thread_1/messages');
    expect(assistantsPath('threads.runs.create', { threadId: 'thread_1' })).toBe('/threads/thread_1/runs');
    expect(() => assistantsPath('threads.get', {})).toThrow('thread id');
  });

  it("sends the beta header and the channel's key, and the model under its upstream name", () => {
    const request = toAssistantsUpstream({ op: 'assistants.create', body: { model: 'public-id', name: 'x' } }, channel);
    expect(request).toMatchObject({ method: 'POST', url: 'https://upstream.example/v1/assistants', stream: false });
    expect(request.headers).toMatchObject({ 'openai-beta': 'assistants=v2', authorization: 'Bearer sk-upstream', 'content-type': 'application/json' });
    expect(JSON.parse(request.body as string)).toEqual({ model: 'gpt-upstream', name: 'x' });
  });

  it('passes list paging as the query and sends no body on GET and DELETE', () => {
    const list = toAssistantsUpstream({ op: 'threads.runs.list', threadId: 'thread_1', query: { limit: 5, order: 'asc', after: undefined } }, channel);
    expect(list).toMatchObject({ method: 'GET', url: 'https://upstream.example/v1/threads/thread_1/runs?limit=5&order=asc' });
    expect(list.body).toBeUndefined();
    const removed = toAssistantsUpstream({ op: 'threads.delete', threadId: 'thread_1' }, channel);
    expect(removed).toMatchObject({ method: 'DELETE', url: 'https://upstream.example/v1/threads/thread_1' });
    expect(removed.body).toBeUndefined();
  });

  it('asks for an event stream only for a streamed run', () => {
    const run = toAssistantsUpstream(
      { op: 'threads.runs.create', threadId: 'thread_1', body: { assistant_id: 'asst_1', stream: true }, stream: true },
      channel,
    );
    expect(run).toMatchObject({ stream: true, headers: { accept: 'text/event-stream' } });
    expect(JSON.parse(run.body as string)).toEqual({ assistant_id: 'asst_1', stream: true });
    expect(toAssistantsUpstream({ op: 'threads.messages.create', threadId: 't', stream: true }, channel).stream).toBe(false);
  });

  it("retrieves one run with the beta header and the channel's key, and no body", () => {
    const run = toRunRetrieveUpstream({ threadId: 'thread_1', runId: 'run_1' }, channel);
    expect(run).toMatchObject({ method: 'GET', url: 'https://upstream.example/v1/threads/thread_1/runs/run_1', stream: false });
    expect(run.headers).toEqual({ accept: 'application/json', 'openai-beta': 'assistants=v2', authorization: 'Bearer sk-upstream' });
    expect(run.body).toBeUndefined();
    expect(() => toRunRetrieveUpstream({ threadId: 'thread_1', runId: '' }, channel)).toThrow('run id');
  });

  it('shows the upstream model as the catalog id on the way back', () => {
    expect(withPublicModel({ id: 'asst_1', model: 'gpt-upstream' }, 'gpt-upstream', 'public-id')).toEqual({ id: 'asst_1', model: 'public-id' });
    expect(withPublicModel({ id: 'asst_1', model: 'other' }, 'gpt-upstream', 'public-id')).toEqual({ id: 'asst_1', model: 'other' });
  });
});
