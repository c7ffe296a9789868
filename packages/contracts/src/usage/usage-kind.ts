import { z } from 'zod';

/**
 * What a usage record bills: one live request of a kind (chat, images, audio, embeddings, moderations),
 * one line of a batch, one media or music task, one assistants run, or one call on assistants and
 * threads themselves (not billed by the gateway: the upstream's run is), or a chat answer served from the
 * response cache.
 */
export const USAGE_KINDS = [
  'chat',
  'batch_line',
  'media_task',
  'music_task',
  'assistants_run',
  'assistants',
  'images',
  'audio',
  'embeddings',
  'moderations',
  'cache_hit',
] as const;
export const UsageKind = z.enum(USAGE_KINDS);
export type UsageKind = z.infer<typeof UsageKind>;

/** How a billable unit ended, in one vocabulary for every kind. */
export const USAGE_RESULTS = ['succeeded', 'failed', 'refunded', 'cancelled', 'expired'] as const;
export const UsageResult = z.enum(USAGE_RESULTS);
export type UsageResult = z.infer<typeof UsageResult>;

/** The part of a usage event its kind is read from when the publisher did not name it. */
export interface KindSource {
  kind?: UsageKind;
  requestId: string;
  clientRequestId?: string;
  route: string;
}

/**
 * A usage event's kind: as its publisher named it, or read from where it came from. A batch line runs
 * under the id `<batch id>-<line>`, with the batch id as its client request id.
 */
export function usageKindOf(event: KindSource): UsageKind {
  if (event.kind) return event.kind;
  const batch = event.clientRequestId;
  if (batch?.startsWith('batch_') && event.requestId.startsWith(`${batch}-`)) return 'batch_line';
  const route = event.route;
  if (route.includes('.threads.runs')) return 'assistants_run';
  if (route.includes('.assistants') || route.includes('.threads')) return 'assistants';
  if (route.includes('.images.')) return 'images';
  if (route.includes('.audio.')) return 'audio';
  if (route.endsWith('.embeddings') || route.includes('.embed')) return 'embeddings';
  if (route.endsWith('.moderations')) return 'moderations';
  if (route.includes('.videos.') || route.startsWith('dsc.') || route.startsWith('nativemedia.')) return 'media_task';
  if (route.startsWith('music.')) return 'music_task';
  return 'chat';
}

/** The task, batch or run a usage event belongs to: as its publisher named it, or a batch line's batch. */
export function usageSubjectOf(event: KindSource & { subjectId?: string }): string | null {
  if (event.subjectId) return event.subjectId;
  return usageKindOf(event) === 'batch_line' ? (event.clientRequestId ?? null) : null;
}

/**
 * The outcome of a request the upstream answered whose reply most likely never reached its client (the
 * bus link dropped while it was served): billed like `ok`, answered 503 at the edge.
 */
export const REPLY_LOST_OUTCOME = 'reply_lost';

/** A usage row's outcome in the shared vocabulary (request outcomes are ok, cache_hit, upstream_error, error, cancelled, expired). */
export function usageResultOf(outcome: string): UsageResult {
  if (outcome === 'ok' || outcome === 'succeeded' || outcome === 'cache_hit') return 'succeeded';
  if (outcome === 'refunded' || outcome === 'cancelled' || outcome === 'expired') return outcome;
  return 'failed';
}
