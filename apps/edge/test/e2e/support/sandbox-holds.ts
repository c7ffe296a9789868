/** The sandbox's holds: a spec stops upstream work after a known count, and lets it go when it chooses. */
import { e2eEnv, http } from './gateway';

/**
 * The sandbox starts `after` pieces of work whose key begins with `prefix` (a native batch line's custom_id,
 * a chat request's last user message), then holds the rest until `liftSandboxHold` or, for its own batches,
 * a cancel.
 */
export async function sandboxHold(prefix: string, after: number): Promise<void> {
  const set = await http('PUT', `${e2eEnv().GW_E2E_SANDBOX_URL}/_sandbox/holds`, { json: { prefix, after } });
  if (set.status !== 200) throw new Error(`the sandbox refused the hold on "${prefix}": ${set.status} ${set.text}`);
}

export async function liftSandboxHold(prefix: string): Promise<void> {
  const lifted = await http('DELETE', `${e2eEnv().GW_E2E_SANDBOX_URL}/_sandbox/holds/${encodeURIComponent(prefix)}`);
  if (lifted.status !== 200) throw new Error(`the sandbox did not lift the hold on "${prefix}": ${lifted.status} ${lifted.text}`);
}
