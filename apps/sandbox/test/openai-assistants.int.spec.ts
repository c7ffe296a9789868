// The sandbox's assistants API through the official openai SDK: a run that takes time (the `run=ms`
// control) reads in progress until then and completed with its usage after, whether or not its stream
// was still being read; a run is retrieved by id.
import { NotFoundError } from 'openai';
import { sandboxOpenAI } from './support/sandbox-openai';

const sandbox = sandboxOpenAI();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sandbox assistants runs', () => {
  it('keeps a run in progress for its run=ms, then completes it with usage and its answer', async () => {
    const assistant = await sandbox.client.beta.assistants.create({ model: 'sandbox-gpt@run=400' });
    const thread = await sandbox.client.beta.threads.create({ messages: [{ role: 'user', content: 'Take your time' }] });
    const started = Date.now();
    const run = await sandbox.client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id });
    expect(run).toMatchObject({ status: 'in_progress', usage: null, completed_at: null });
    expect(await sandbox.client.beta.threads.runs.retrieve(run.id, { thread_id: thread.id })).toMatchObject({ id: run.id, status: 'in_progress' });
    expect((await sandbox.client.beta.threads.messages.list(thread.id)).data.map((m) => m.role)).toEqual(['user']);
    await sleep(450 - (Date.now() - started));
    const done = await sandbox.client.beta.threads.runs.retrieve(run.id, { thread_id: thread.id });
    expect(done).toMatchObject({ id: run.id, status: 'completed' });
    expect(done.usage!.completion_tokens).toBeGreaterThan(0);
    expect((await sandbox.client.beta.threads.runs.list(thread.id)).data[0]).toMatchObject({ id: run.id, status: 'completed' });
    const messages = await sandbox.client.beta.threads.messages.list(thread.id);
    expect(messages.data[0]).toMatchObject({ role: 'assistant', run_id: run.id });
  });

  it('completes a streamed run that takes time though its reader left after the first event', async () => {
    const assistant = await sandbox.client.beta.assistants.create({ model: 'sandbox-gpt@run=300' });
    const thread = await sandbox.client.beta.threads.create({ messages: [{ role: 'user', content: 'Left early' }] });
    const stream = await sandbox.client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id, stream: true });
    let runId = '';
    for await (const event of stream) {
      if (event.event === 'thread.run.created') runId = event.data.id;
      break;
    }
    expect((await sandbox.client.beta.threads.runs.retrieve(runId, { thread_id: thread.id })).status).toBe('in_progress');
    await sleep(350);
    expect(await sandbox.client.beta.threads.runs.retrieve(runId, { thread_id: thread.id })).toMatchObject({ status: 'completed', usage: expect.any(Object) });
  });

  it('streams a run that takes time with a pause after it starts', async () => {
    const assistant = await sandbox.client.beta.assistants.create({ model: 'sandbox-gpt@run=250' });
    const thread = await sandbox.client.beta.threads.create({ messages: [{ role: 'user', content: 'Stream it' }] });
    const stream = await sandbox.client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id, stream: true });
    const times: Record<string, number> = {};
    for await (const event of stream) times[event.event] ??= Date.now();
    expect(times['thread.message.created']! - times['thread.run.in_progress']!).toBeGreaterThanOrEqual(200);
    expect(times['thread.run.completed']).toBeDefined();
  });

  it('ends a run whose prompt is above its max_prompt_tokens incomplete, having read no more than the cap and written nothing', async () => {
    const assistant = await sandbox.client.beta.assistants.create({ model: 'sandbox-gpt' });
    const thread = await sandbox.client.beta.threads.create({ messages: [{ role: 'user', content: 'word '.repeat(2_000).trim() }] });
    const run = await sandbox.client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id, max_prompt_tokens: 500 });
    expect(run).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_prompt_tokens' }, max_prompt_tokens: 500 });
    expect(run.usage).toMatchObject({ prompt_tokens: 500, completion_tokens: 0 });
    expect((await sandbox.client.beta.threads.messages.list(thread.id)).data.map((m) => m.role)).toEqual(['user']);
    const seen: string[] = [];
    const stream = await sandbox.client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id, max_prompt_tokens: 500, stream: true });
    for await (const event of stream) seen.push(event.event);
    expect(seen.slice(-1)).toEqual(['thread.run.incomplete']);
    // Under the cap the run completes as before.
    expect((await sandbox.client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id, max_prompt_tokens: 5_000 })).status).toBe('completed');
  });

  it('answers 404 for a run it does not know, and refuses a run control that is no duration', async () => {
    const thread = await sandbox.client.beta.threads.create();
    await expect(sandbox.client.beta.threads.runs.retrieve('run_missing', { thread_id: thread.id })).rejects.toBeInstanceOf(NotFoundError);
    const assistant = await sandbox.client.beta.assistants.create({ model: 'sandbox-gpt@run=soon' });
    await expect(sandbox.client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id })).rejects.toMatchObject({ status: 400, param: 'model@run' });
  });
});
