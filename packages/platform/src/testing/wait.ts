import { setTimeout as sleep } from 'node:timers/promises';

/** Runs `step` until it succeeds, every `intervalMs`; past `deadlineMs` its last failure is thrown. */
export async function retrying<T>(step: () => Promise<T>, deadlineMs = 30_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(intervalMs);
    }
  }
}

/** Waits until `check` holds, looking every `intervalMs`; past `timeoutMs` it fails naming `what`. */
export async function until(what: string, check: () => boolean, timeoutMs = 10_000, intervalMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}
