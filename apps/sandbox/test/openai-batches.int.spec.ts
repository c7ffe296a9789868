// The sandbox's OpenAI files and batches API through the official openai SDK: what a gateway forwarding
// whole batches relies on (upload, create, poll, output and error files in OpenAI's shape, cancel).
import OpenAI, { toFile } from 'openai';
import { setTimeout as sleep } from 'node:timers/promises';
import { sandboxOpenAI } from './support/sandbox-openai';

const sandbox = sandboxOpenAI();

const line = (id: string, model: string, content: string) =>
  JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content }] } });

async function upload(lines: string[]): Promise<OpenAI.FileObject> {
  return sandbox.client.files.create({ file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'in.jsonl'), purpose: 'batch' });
}

async function until(id: string, done: (b: OpenAI.Batch) => boolean): Promise<OpenAI.Batch> {
  for (let i = 0; i < 200; i++) {
    const batch = await sandbox.client.batches.retrieve(id);
    if (done(batch)) return batch;
    await sleep(50);
  }
  throw new Error(`batch ${id} never got there`);
}

interface ChatBody {
  choices: { message: { content: string } }[];
  usage: { prompt_tokens: number };
}

const jsonl = async (fileId: string) =>
  (await (await sandbox.client.files.content(fileId)).text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { custom_id: string; response: { status_code: number; request_id: string; body: ChatBody } });

describe('sandbox OpenAI batches via the openai SDK', () => {
  it('runs a batch through the live builders: output in OpenAI shape with usage, a refused line in the error file', async () => {
    const input = await upload([
      line('a', 'sandbox-gpt', 'first'),
      line('b', 'sandbox-gpt', 'second'),
      JSON.stringify({ custom_id: 'c', method: 'POST', url: '/v1/chat/completions', body: { model: 'sandbox-gpt' } }),
    ]);
    expect(input).toMatchObject({ object: 'file', purpose: 'batch', filename: 'in.jsonl' });
    expect((await sandbox.client.files.retrieve(input.id)).bytes).toBe(input.bytes);
    const created = await sandbox.client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(created.status).toBe('validating');
    const done = await until(created.id, (b) => b.status === 'completed');
    expect(done.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    const output = await jsonl(done.output_file_id!);
    expect(output.map((l) => l.custom_id)).toEqual(['a', 'b']);
    expect(output[0]!.response.status_code).toBe(200);
    expect(output[0]!.response.request_id).toMatch(/^req_/);
    expect(output[0]!.response.body.choices[0].message.content).toBe('You said: first');
    expect(output[0]!.response.body.usage.prompt_tokens).toBeGreaterThan(0);
    const errors = await jsonl(done.error_file_id!);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ custom_id: 'c', response: { status_code: 400 } });
  });

  it('cancels a running batch: lines in flight finish, the rest never run', async () => {
    const input = await upload(Array.from({ length: 400 }, (_, i) => line(`s${i}`, 'sandbox-gpt@latency=10', `line ${i}`)));
    const created = await sandbox.client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await until(created.id, (b) => (b.request_counts?.completed ?? 0) > 0);
    expect((await sandbox.client.batches.cancel(created.id)).status).toBe('cancelling');
    const cancelled = await until(created.id, (b) => b.status === 'cancelled');
    const completed = cancelled.request_counts!.completed;
    expect(completed).toBeGreaterThan(0);
    expect(completed).toBeLessThan(400);
    expect(await jsonl(cancelled.output_file_id!)).toHaveLength(completed);
  });

  it('answers unknown ids with 404 and a batch over a file of another purpose with 400', async () => {
    await expect(sandbox.client.batches.retrieve('batch_missing')).rejects.toMatchObject({ status: 404 });
    await expect(sandbox.client.files.retrieve('file-missing')).rejects.toMatchObject({ status: 404 });
    const note = await sandbox.client.files.create({ file: await toFile(Buffer.from('x'), 'note.txt'), purpose: 'user_data' });
    await expect(sandbox.client.batches.create({ input_file_id: note.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toMatchObject({
      status: 400,
    });
  });
});
