import type { RouteDef } from '@gateway/contracts';
import type { EdgeEnv } from '../config/edge-env';

/** NATS's default max_payload, for a connection that has not said its own. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/** Room in one bus message for what travels around a body: the caller's ids, the route, headers. */
export const ENVELOPE_ROOM = 64 * 1024;

/**
 * Routes whose body the edge parks in Redis when it is over one bus message (claim check): the chat
 * families and the assistants. Every other body travels inside one message and must fit it.
 */
const CLAIM_CHECKED =
  /^(oaic\.(chat|completions|responses\.create|embeddings|moderations|images\.generations|audio\.speech|assistants\.|threads\.)|msgc\.|genc\.)/;

/** The largest body a route reads, and the variable that sets it (named in its 413). */
export interface BodyLimit {
  bytes: number;
  variable: 'EDGE_RELAYED_BODY_MAX_BYTES' | 'EDGE_BUS_BODY_MAX_BYTES' | 'MUSIC_CALLBACK_MAX_BYTES' | 'MEDIA_CALLBACK_MAX_BYTES';
}

type LimitEnv = Pick<EdgeEnv, 'EDGE_RELAYED_BODY_MAX_BYTES' | 'EDGE_BUS_BODY_MAX_BYTES' | 'MUSIC_CALLBACK_MAX_BYTES'>;

/** The largest body that still fits one bus message with its envelope, or the configured limit if lower. */
export function busBodyLimit(env: LimitEnv, maxPayload = DEFAULT_MAX_PAYLOAD): number {
  const fits = Math.max(1, maxPayload - ENVELOPE_ROOM);
  return Math.min(env.EDGE_BUS_BODY_MAX_BYTES ?? fits, fits);
}

export function bodyLimitOf(route: Pick<RouteDef, 'id'>, env: LimitEnv, maxPayload?: number): BodyLimit {
  if (CLAIM_CHECKED.test(route.id)) return { bytes: env.EDGE_RELAYED_BODY_MAX_BYTES, variable: 'EDGE_RELAYED_BODY_MAX_BYTES' };
  return { bytes: busBodyLimit(env, maxPayload), variable: 'EDGE_BUS_BODY_MAX_BYTES' };
}

/** The message of a 413 for a body over `limit`. */
export function tooLargeMessage(limit: BodyLimit): string {
  return `The request body is larger than the ${limit.bytes} bytes this route accepts (${limit.variable}).`;
}
