import type { UrlSigner } from '@gateway/storage';
import type { MediaTask } from '../tasks/media-task.repository';

/** Signed gateway URLs (on the edge's public origin) of a task's stored results, valid `ttlSeconds` from now. */
export function resultLinks(task: MediaTask, signer: UrlSigner, origin: string, ttlSeconds: number): string[] {
  const expiresAt = Math.floor(Date.now() / 1000) + ttlSeconds;
  const base = origin.replace(/\/+$/, '');
  return task.results.map((result) => `${base}${signer.path(result.key, expiresAt)}`);
}
