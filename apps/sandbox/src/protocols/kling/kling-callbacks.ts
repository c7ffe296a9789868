// The Kling-style vendor's callbacks: when a task given a `callback_url` ends, the task's data is POSTed
// there once (`callback=duplicate`: twice at once; `late`: again a second later; `none`: never). A receiver
// that fails is not retried.
import type { BoardTask } from '../../core/task-board';

const TIMEOUT_MS = 15_000;
/** How long after the first a `late` callback is repeated. */
const LATE_MS = 1000;

async function post(url: string, body: unknown): Promise<void> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.arrayBuffer();
  } catch {
    // the gateway's safety-net polls cover a callback that did not arrive
  }
}

/** Calls `url` with the task's data when it ends (succeeds, or fails halfway under `taskfail=mid`). */
export function callBackAtEnd(task: BoardTask, url: string, data: () => unknown): void {
  const { callback, totalMs, fail } = task.controls;
  if (callback === 'none') return;
  const endsInMs = Math.max(0, task.createdAt + (fail === 'mid' ? totalMs / 2 : totalMs) - Date.now());
  setTimeout(() => {
    void (async () => {
      await post(url, data());
      if (callback === 'duplicate') await post(url, data());
      if (callback === 'late') setTimeout(() => void post(url, data()), LATE_MS).unref();
    })();
  }, endsInMs + 1).unref();
}
