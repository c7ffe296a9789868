/** Batch input files and waits for the batch e2e specs. */
import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import type { Batch } from 'openai/resources/batches';

/** Lines one files worker runs at once in the e2e stack (its BATCH_CONCURRENCY). */
export const E2E_BATCH_CONCURRENCY = 16;

export function chatLine(customId: string, model: string, content = `line ${customId}`): string {
  return JSON.stringify({
    custom_id: customId,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model, messages: [{ role: 'user', content }], max_tokens: 8 },
  });
}

/** A JSONL file of `n` chat lines, the models taken in turn. */
export function chatFile(n: number, models: string[], prefix = 'req'): File {
  const lines = Array.from({ length: n }, (_, i) => chatLine(`${prefix}-${i}`, models[i % models.length]!));
  return new File([lines.join('\n') + '\n'], `${prefix}.jsonl`, { type: 'application/jsonl' });
}

export async function waitForBatch(client: OpenAI, id: string, done: (batch: Batch) => boolean, timeoutMs = 60_000): Promise<Batch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await client.batches.retrieve(id);
    if (done(batch)) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${batch.status} after ${timeoutMs} ms: ${JSON.stringify(batch.request_counts)}`);
    await sleep(200);
  }
}

export const finished = (batch: Batch) => ['completed', 'failed', 'expired', 'cancelled'].includes(batch.status);

/** The JSONL lines of a file's content, parsed. */
export async function jsonlOf(client: OpenAI, fileId: string): Promise<Array<Record<string, unknown>>> {
  const text = await (await client.files.content(fileId)).text();
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
