import { Holds } from '../../core/holds';
import { SandboxStats } from '../../core/stats';
import { BatchBoard, type BoardBatch } from './batch-board';

const NO_CONTROLS = () => ({ latencyMs: 0, chunkDelayMs: 0, fail: null });

function inputOf(board: BatchBoard, prefix: string, n: number) {
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      custom_id: `${prefix}-${i}`,
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'sandbox-gpt', messages: [{ role: 'user', content: `line ${i}` }], max_tokens: 4 },
    }),
  );
  return board.addFile(`${prefix}.jsonl`, 'batch', Buffer.from(lines.join('\n') + '\n'));
}

/** Resolves once the batch meets the condition, checking after every change the holds announce or every turn. */
async function until(batch: BoardBatch, condition: (b: BoardBatch) => boolean): Promise<void> {
  while (!condition(batch)) await new Promise((resolve) => setImmediate(resolve));
}

describe('BatchBoard holds', () => {
  let holds: Holds;
  let board: BatchBoard;

  beforeEach(() => {
    holds = new Holds();
    board = new BatchBoard(new SandboxStats(), holds);
  });

  it('stops a held batch after the allowed lines, and a cancel ends it with exactly those lines', async () => {
    holds.set({ prefix: 'held-', after: 5 });
    const batch = board.create(inputOf(board, 'held', 40), '/v1/chat/completions', null, NO_CONTROLS);
    await until(batch, (b) => b.status === 'in_progress' && b.request_counts.completed === 5);
    // Every lane now waits on the hold: a thousand turns later nothing more has run.
    for (let turn = 0; turn < 1000; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(batch).toMatchObject({ status: 'in_progress', request_counts: { total: 40, completed: 5, failed: 0 } });

    board.cancel(batch);
    await until(batch, (b) => b.status === 'cancelled');
    expect(batch.request_counts).toEqual({ total: 40, completed: 5, failed: 0 });
    const output = board.file(batch.output_file_id!)!.content.toString().trim().split('\n');
    expect(output.map((line) => (JSON.parse(line) as { custom_id: string }).custom_id).sort()).toEqual(
      ['held-0', 'held-1', 'held-2', 'held-3', 'held-4'].sort(),
    );
  });

  it('runs the rest once the hold is lifted, and leaves batches of other custom ids alone', async () => {
    holds.set({ prefix: 'held-', after: 3 });
    const held = board.create(inputOf(board, 'held', 12), '/v1/chat/completions', null, NO_CONTROLS);
    const free = board.create(inputOf(board, 'free', 12), '/v1/chat/completions', null, NO_CONTROLS);
    await until(free, (b) => b.status === 'completed');
    await until(held, (b) => b.request_counts.completed === 3);
    expect(held.status).toBe('in_progress');

    expect(holds.lift('held-')).toBe(true);
    await until(held, (b) => b.status === 'completed');
    expect(held.request_counts).toEqual({ total: 12, completed: 12, failed: 0 });
    expect(holds.list()).toEqual([]);
  });
});
