/**
 * What a failed task tells its tenant: a gateway error code and a message in the gateway's own words,
 * or the upstream's. The gateway's internals (database and storage errors, paths, stacks) stay in the
 * log, under the task and request ids.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
const MAX_UPSTREAM_MESSAGE = 500;

/** The gateway's message for a failure it caused itself, by code. */
export const TASK_FAILURE_MESSAGES = {
  ingest_failed: 'The generated files could not be copied from the upstream into storage.',
  deadline_exceeded: 'The task did not finish before its deadline.',
  channel_missing: 'The upstream channel that accepted this task is no longer configured.',
} as const;

/** An upstream's own failure text as the tenant may read it: one line, no control characters, bounded. */
export function upstreamFailureMessage(text: string): string {
  const line = text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  if (!line) return 'The upstream reported the task failed.';
  return line.length > MAX_UPSTREAM_MESSAGE ? `${line.slice(0, MAX_UPSTREAM_MESSAGE - 1)}…` : line;
}
