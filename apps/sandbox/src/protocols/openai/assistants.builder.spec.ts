import { messageObject, planRun, runEvents, runObject, textContent } from './assistants.builder';

const thread = 'thread_1';
const message = (role: 'user' | 'assistant', text: string, id: string) => messageObject({ id, createdAt: 100, threadId: thread }, role, textContent(text));

describe('assistants builder', () => {
  it('answers a run from the thread as the chat builder answers its last user message', () => {
    const input = { model: 'sandbox-gpt', instructions: 'Be brief.', messages: [message('user', 'first', 'm1'), message('user', 'What now?', 'm2')] };
    const plan = planRun(input);
    expect(plan.text).toBe('You said: What now?');
    expect(plan.usage.prompt_tokens).toBeGreaterThan(0);
    const run = runObject({ id: 'run_1', createdAt: 100, threadId: thread, assistantId: 'asst_1' }, { ...input, tools: [], metadata: {} }, 'completed', plan);
    expect(run).toMatchObject({ object: 'thread.run', status: 'completed', model: 'sandbox-gpt', usage: { completion_tokens: plan.usage.completion_tokens } });
  });

  it('keeps the text parts of a message and honours a completion cap', () => {
    expect(textContent([{ type: 'text', text: 'a' }, { type: 'image_file' }, { type: 'text', text: 'b' }]).map((part) => part.text.value)).toEqual(['a', 'b']);
    const plan = planRun({ model: 'm', instructions: '', messages: [message('user', 'one two three four five six', 'm1')], maxCompletionTokens: 2 });
    expect(plan.usage.completion_tokens).toBe(2);
  });

  it("streams OpenAI's event sequence, the deltas spelling the answer", () => {
    const input = { model: 'sandbox-gpt', instructions: '', messages: [message('user', 'hello', 'm1')] };
    const plan = planRun(input);
    const run = runObject({ id: 'run_1', createdAt: 100, threadId: thread, assistantId: 'asst_1' }, { ...input, tools: [], metadata: {} }, 'completed', plan);
    const answer = messageObject({ id: 'm2', createdAt: 100, threadId: thread }, 'assistant', textContent(plan.text), { runId: 'run_1' });
    const events = runEvents(run, answer, plan);
    const names = events.map((e) => e.event);
    expect(names.slice(0, 5)).toEqual([
      'thread.run.created',
      'thread.run.queued',
      'thread.run.in_progress',
      'thread.message.created',
      'thread.message.in_progress',
    ]);
    expect(names.slice(-3)).toEqual(['thread.message.completed', 'thread.run.completed', 'done']);
    const deltas = events.filter((e) => e.event === 'thread.message.delta') as Array<{ data: { delta: { content: Array<{ text: { value: string } }> } } }>;
    expect(deltas.map((e) => e.data.delta.content[0]!.text.value).join('')).toBe('You said: hello');
    expect((events[0]!.data as { status: string; usage: unknown }).status).toBe('queued');
    expect((events[0]!.data as { usage: unknown }).usage).toBeNull();
  });
});
