import { spawn } from 'node:child_process';
import path from 'node:path';

const FIXTURE = path.join(__dirname, '..', '..', 'test', 'batched-log.fixture.js');

interface Run {
  lines: Array<Record<string, unknown>>;
  code: number | null;
  /** When the first line reached this process. */
  firstArrivedAt: number | null;
}

/** Runs the fixture; with `waitFor`, kills it once that many lines arrived (it would not exit on its own). */
function run(env: Record<string, string>, waitFor?: number): Promise<Run> {
  const child = spawn(process.execPath, [FIXTURE], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  let firstArrivedAt: number | null = null;
  const parsed = () =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    if (firstArrivedAt === null && text.includes('\n')) firstArrivedAt = Date.now();
    if (waitFor !== undefined && parsed().length >= waitFor) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ lines: parsed(), code, firstArrivedAt })));
}

// Each test starts a Node process that loads pino: seconds on a loaded machine.
jest.setTimeout(30_000);

describe('the batched log destination', () => {
  it('writes every line, in order, when the process exits right after logging them', async () => {
    const { lines, code } = await run({ LINES: '5000', THEN: 'exit' });
    expect(code).toBe(0);
    expect(lines).toHaveLength(5000);
    expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 5000 }, (_, n) => n));
    expect(lines[4999]).toMatchObject({ level: 'info', app: 'fixture', msg: 'access', requestId: 'req-4999' });
  });

  it('writes every line before a process that throws dies', async () => {
    const { lines, code } = await run({ LINES: '300', THEN: 'throw' });
    expect(code).not.toBe(0);
    expect(lines).toHaveLength(300);
  });

  it('writes a line shorter than a batch within a moment when nothing else is logged', async () => {
    // The fixture stays up and logs nothing more: only the periodic flush can bring the line out.
    const { lines, firstArrivedAt } = await run({ LINES: '1', THEN: 'wait' }, 1);
    expect(lines).toHaveLength(1);
    // Timed from the line's own stamp, so the seconds a loaded machine takes to start Node do not count.
    const loggedAt = typeof lines[0]!.time === 'number' ? lines[0]!.time : Date.parse(String(lines[0]!.time));
    expect(Number.isFinite(loggedAt)).toBe(true);
    expect(firstArrivedAt! - loggedAt).toBeLessThan(5000);
  });
});
