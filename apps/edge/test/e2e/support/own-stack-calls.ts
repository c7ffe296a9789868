/** Calls a spec makes on a stack of its own that it kills parts of: answers are never thrown, only recorded. */
import type { RunningStack } from '@gateway/cli';
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import { request } from 'undici';
import { eventually } from './billing-fixtures';
import { CLI_BIN, type CliResult } from './cli-runner';

export interface Answer {
  status: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Music task states that end a task. */
export const MUSIC_ENDS = ['SUCCESS', 'GENERATE_AUDIO_FAILED', 'CREATE_TASK_FAILED', 'SENSITIVE_WORD_ERROR'];

/** One HTTP call to the stack's edge, given up after `timeoutMs`: status 0 for no answer, the body parsed when it is JSON. */
export async function callStack(
  stack: RunningStack,
  timeoutMs: number,
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  json?: unknown,
): Promise<Answer> {
  try {
    const response = await request(`${stack.baseUrl}${url}`, {
      method,
      headers: { ...headers, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.body.text();
    let body: Answer['body'] = {};
    try {
      body = text.startsWith('{') ? JSON.parse(text) : {};
    } catch {
      body = {};
    }
    return { status: response.statusCode, body };
  } catch {
    return { status: 0, body: {} };
  }
}

/** gatewayctl against the stack's admin API. */
export function cliOn(stack: RunningStack, args: string[]): Promise<CliResult> {
  const global = ['--admin-url', stack.adminUrl, '--admin-token', stack.adminToken];
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BIN, ...global, ...args], { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Polls until `done` says the answer is final, or gives up quietly after `timeoutMs` (the final check comes later). */
export async function ended(read: () => Promise<Answer>, done: (body: Answer['body']) => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (done((await read()).body)) return;
    await sleep(200);
  }
}

/** The books after a run of faults: the batch of four lines completed, then `reconcile --all` exits 0 once the writers have caught up. */
export async function expectBatchDoneAndBooksReconciled(
  stack: RunningStack,
  openai: OpenAI,
  batchId: string,
  logFile: string,
  timeouts: { batchMs: number; reconcileMs: number },
): Promise<void> {
  const done = await eventually(
    'the batch completes',
    () => openai.batches.retrieve(batchId),
    (b) => b.status === 'completed',
    timeouts.batchMs,
  );
  expect(done.request_counts).toMatchObject({ total: 4 });
  const reconciled = await eventually(
    `reconcile --all exits 0 (logs: ${logFile})`,
    () => cliOn(stack, ['reconcile', '--all']),
    (r) => r.code === 0,
    timeouts.reconcileMs,
  );
  expect(reconciled.stdout).toMatch(/^ok: 1 tenant\(s\) reconciled/);
}
